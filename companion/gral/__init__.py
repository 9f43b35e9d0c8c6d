"""Die Jagd nach dem Gral: hidden influence on eight initiates racing the grail home."""
