"""Rendering: PDF building blocks, fonts, QR codes, reports. Heavy imports stay inside here."""
