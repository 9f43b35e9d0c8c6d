"""Gral's own commands: 'companion gral verify --disclosure FILE' with a file that cannot be used
says what is wrong and where to look (the shared reading of a disclosure file)."""


def test_verify_disclosure_missing_file_says_so_with_a_hint(cli):
    result = cli("gral", "verify", "--disclosure", "nowhere.json")
    assert result.code == 1
    assert "file not found: nowhere.json" in result.err
    assert "Errno" not in result.err and "disclosure" in result.err.split("file not found")[1]


def test_verify_disclosure_bad_json_names_line_and_column(cli):
    (cli.root / "broken.json").write_text('{"format": "x",\n  "turns": [1,, 2]}\n',
                                          encoding="utf-8")
    result = cli("gral", "verify", "--disclosure", "broken.json")
    assert result.code == 1
    assert "broken.json:2:" in result.err and "not valid JSON" in result.err
    assert "Errno" not in result.err


def test_verify_disclosure_folder_is_not_a_file(cli):
    (cli.root / "folder").mkdir()
    result = cli("gral", "verify", "--disclosure", "folder")
    assert result.code == 1 and "is a folder, not a file" in result.err
