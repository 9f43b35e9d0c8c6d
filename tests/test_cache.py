"""The cache of loaded game data (companion/engine/cache.py): the same result as loading from
the files, stale when a file or the code changes, and never in the way when it is broken."""
from __future__ import annotations

import copy
import json
import marshal
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import pytest

from companion.engine import cache
from companion.errors import DataError
from companion.koc import world as koc_world
from companion.koc.world import DATA_DIR, FILES, load_world

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test's own."""
    out = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(out))
    return out


@pytest.fixture
def data(tmp_path) -> Path:
    """A writable copy of Knights of Camelot's data folder."""
    out = tmp_path / "data"
    shutil.copytree(DATA_DIR, out)
    return out


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.cache")) if folder.exists() else []


def not_from_toml(monkeypatch):
    """Loading from the files fails from now on: a world must come from the cache."""
    def refuse(self):
        raise AssertionError("loaded from the TOML files, not from the cache")

    monkeypatch.setattr(koc_world._Loader, "run", refuse)


def test_the_cached_world_is_the_loaded_world(folder, data, monkeypatch):
    fresh = load_world(data)
    first = load_world(data, cache=True)
    assert len(cache_files(folder)) == 1
    assert first == fresh
    not_from_toml(monkeypatch)
    again = load_world(data, cache=True)
    assert again == fresh
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(fresh.to_json(),
                                                                      sort_keys=True)
    assert [type(c) for c in again.charts.values()] == [type(c) for c in fresh.charts.values()]
    assert not list(folder.glob(".*"))          # no temporary file left behind


def test_instances_shared_in_the_world_stay_shared(folder, data):
    fresh = load_world(data)
    shared = {id(e) for c in fresh.charts.values() for e in c.entries}
    steps = [e for s in fresh.war_steps.values() for e in s.effects if id(e) in shared]
    load_world(data, cache=True)
    again = load_world(data, cache=True)
    entries = {id(e) for c in again.charts.values() for e in c.entries}
    assert len([e for s in again.war_steps.values() for e in s.effects
                if id(e) in entries]) == len(steps)


def test_editing_a_data_file_makes_the_cache_stale(folder, data):
    load_world(data, cache=True)
    path = data / "kingdoms.toml"
    text = path.read_text(encoding="utf-8")
    old = "An island with no king on the map; a brigand haunt."
    assert old in text
    path.write_text(text.replace(old, "An island of brigands (edited)."), encoding="utf-8")
    edited = load_world(data, cache=True)
    assert edited == load_world(data)
    assert any(k.note == "An island of brigands (edited)." for k in edited.independent.values())
    assert len(cache_files(folder)) == 1        # the same file, replaced


def test_a_broken_data_file_is_reported_and_not_cached(folder, data):
    load_world(data, cache=True)
    (data / "knights.toml").write_text("[[knight]\n", encoding="utf-8")
    with pytest.raises(DataError) as cached:
        load_world(data, cache=True)
    with pytest.raises(DataError) as plain:
        load_world(data)
    assert cached.value.path.endswith("knights.toml")
    assert (str(cached.value), cached.value.path, cached.value.line) == \
        (str(plain.value), plain.value.path, plain.value.line)


def test_another_code_version_makes_the_cache_stale(folder, data, monkeypatch):
    import companion

    load_world(data, cache=True)
    key = cache.content_key([data / n for n in FILES], koc_world.CODE)
    monkeypatch.setattr(companion, "__version__", companion.__version__ + ".dev1")
    assert cache.content_key([data / n for n in FILES], koc_world.CODE) != key
    calls = []
    run = koc_world._Loader.run
    monkeypatch.setattr(koc_world._Loader, "run", lambda self: calls.append(1) or run(self))
    assert load_world(data, cache=True) == load_world(data)
    assert len(calls) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "foreign class"])
def test_a_damaged_cache_file_is_ignored_and_replaced(folder, data, damage):
    fresh = load_world(data)
    load_world(data, cache=True)
    [path] = cache_files(folder)
    raw = path.read_bytes()
    if damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "flip":
        raw = raw[:-100] + bytes([raw[-100] ^ 0xFF]) + raw[-99:]
    elif damage == "garbage":
        raw = os.urandom(len(raw))
    elif damage == "empty":
        raw = b""
    else:   # a well-formed file (its hash right) whose data names a class out of range
        head, payload = raw.split(b"\n", 3)[:3], marshal.dumps((b"o", 99, 0))
        import hashlib

        raw = b"\n".join([*head[:2], hashlib.sha256(payload).hexdigest().encode(), payload])
    path.write_bytes(raw)
    assert load_world(data, cache=True) == fresh
    assert load_world(data, cache=True) == fresh
    assert path.read_bytes().startswith(cache.MAGIC)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX file modes")
def test_a_cache_file_others_may_write_is_not_read(folder, data, monkeypatch):
    load_world(data, cache=True)
    [path] = cache_files(folder)
    path.chmod(0o666)
    calls = []
    run = koc_world._Loader.run
    monkeypatch.setattr(koc_world._Loader, "run", lambda self: calls.append(1) or run(self))
    assert load_world(data, cache=True) == load_world(data)
    assert len(calls) == 2
    assert path.stat().st_mode & 0o777 == 0o600          # replaced by a file of its own


def test_an_unusable_cache_folder_changes_nothing(tmp_path, data, monkeypatch):
    fresh = load_world(data)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.ENV, str(blocker))
    assert load_world(data, cache=True) == fresh
    if os.geteuid() != 0:                       # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        monkeypatch.setenv(cache.ENV, str(locked))
        assert load_world(data, cache=True) == fresh
        assert not list(locked.iterdir())


def test_the_cache_can_be_turned_off(tmp_path, data, monkeypatch):
    monkeypatch.setenv(cache.ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() is None
    assert load_world(data, cache=True) == load_world(data)
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def test_where_the_cache_lives(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv(cache.ENV, raising=False)
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "companion"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "companion"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "companion"
    monkeypatch.setenv(cache.ENV, str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(cache.ENV, "OFF")
    assert cache.cache_dir() is None


@dataclass(frozen=True)
class Leaf:
    name: str
    values: dict


@dataclass
class Tree:
    leaves: tuple
    extra: list


def test_the_codec_rebuilds_values_exactly():
    codec = cache.Codec([Leaf, Tree])
    leaf = Leaf("a", {"n": 1, "f": 0.1, "t": True, "none": None, "list": [1, (2, 3)]})
    tree = Tree((leaf, leaf, Leaf("b", {})), [{"k": leaf}, (1.5, "x"), [], (), Path("a/b")])
    back = codec.decode(marshal.loads(marshal.dumps(codec.encode(tree))))
    assert back == tree
    assert back.leaves[0] is back.leaves[1] is back.extra[0]["k"]
    assert type(back.extra[1]) is tuple and type(back.leaves[0].values["list"][1]) is tuple
    assert type(back.leaves[0].values["t"]) is bool and back.extra[4] == Path("a/b")
    assert codec.decode(codec.encode({"plain": [1, 2]})) == {"plain": [1, 2]}


@dataclass
class Lazy(cache.Deferred):
    name: str
    heavy: dict
    more: list


def test_deferred_fields_are_decoded_when_first_read():
    codec = cache.Codec([Leaf, Lazy], deferred={Lazy: ("heavy", "more")})
    leaf = Leaf("a", {"n": 1})
    value = Lazy("x", {"leaf": leaf, "again": leaf}, [leaf, (1, 2)])
    back = codec.decode(marshal.loads(marshal.dumps(codec.encode(value))))
    assert "heavy" not in vars(back) and "more" not in vars(back)
    twin = copy.copy(back)
    assert back.name == "x" and "heavy" not in vars(back)
    assert back.heavy == value.heavy and back.heavy["leaf"] is back.heavy["again"]
    assert "heavy" in vars(back) and "more" not in vars(back)
    assert twin == value and cache.same(twin, value) and repr(twin) == repr(value)
    assert replace(back, name="y").more == value.more
    with pytest.raises(AttributeError):
        back.missing
    with pytest.raises(TypeError):
        cache.Codec([Leaf], deferred={Leaf: ("values",)})
    with pytest.raises(TypeError):
        cache.Codec([Leaf, Lazy], deferred={Lazy: ("nothing",)})
    encoded = codec.encode(value)
    for broken in [(*encoded[:4], {"in": "place"}, encoded[5]),
                   (*encoded[:4], (b"z", 0, "not bytes"), encoded[5]), encoded[:5]]:
        with pytest.raises(ValueError):
            codec.decode(broken)


def test_a_cached_world_decodes_its_charts_only_when_used(folder, data):
    fresh = load_world(data)
    load_world(data, cache=True)
    again = load_world(data, cache=True)
    assert {"charts", "war_steps"} & set(vars(again)) == set()
    assert again.area("Sorhaute") == fresh.area("Sorhaute")
    assert "charts" not in vars(again)
    assert again.chart(next(iter(fresh.charts))) == fresh.chart(next(iter(fresh.charts)))
    assert again == fresh and "war_steps" in vars(again)


@pytest.mark.parametrize("value", [b"bytes", {1.5: "float key"}, {("a",): 1}, object(),
                                   {1, 2}, PurePosixPath("x"), Leaf])
def test_the_codec_refuses_what_it_cannot_rebuild(value):
    with pytest.raises(TypeError):
        cache.Codec([Leaf]).encode(Leaf("x", {"v": value}))


def test_the_codec_refuses_attributes_that_are_not_fields():
    tree = Tree((), [])
    tree.later = 1
    with pytest.raises(TypeError):
        cache.Codec([Tree]).encode(tree)


def test_the_codec_takes_only_plain_dataclasses():
    @dataclass
    class Checked:
        x: int

        def __post_init__(self):
            pass

    with pytest.raises(TypeError):
        cache.Codec([Checked])
    with pytest.raises(TypeError):
        cache.Codec([dict])


@pytest.mark.parametrize("data", [(b"o", 5, 0), (b"o", -1, 0), (b"r", 0), (b"x", 0),
                                  (b"t", 1, (b"o", 9, 0))])
def test_the_codec_refuses_data_it_did_not_make(data):
    with pytest.raises(Exception):
        cache.Codec([Leaf]).decode(data)


# What each kind caches: (the code that loads it from the files, the sources its cache key
# covers, how to load it with the cache, how to load it without).
CACHED = {
    "koc": ("from companion.koc.world import load_world; load_world()",
            lambda: koc_world.CODE,
            lambda: load_world(cache=True), lambda: load_world()),
    "koc-scenario": ("from companion.koc.scenarios import read, FOLDER\n"
                     "read((FOLDER / 'grail.toml').read_text(), 'grail.toml')",
                     lambda: __import__("companion.koc.scenarios").koc.scenarios.code(),
                     lambda: _scenario(True), lambda: _scenario(False)),
    "gral": ("from companion.gral.world import _read, DATA_DIR; _read(str(DATA_DIR))",
             lambda: __import__("companion.gral.world").gral.world.CODE,
             lambda: _gral(True), lambda: _gral(False)),
    "mayhem": ("from companion.mayhem.cards import _Loader, DATA_DIR; _Loader(DATA_DIR).run()",
               lambda: __import__("companion.mayhem.cards").mayhem.cards.CODE,
               lambda: _mayhem(True), lambda: _mayhem(False)),
    "fluxx": ("from companion.fluxx.cards import load_deck; load_deck()",
              lambda: __import__("companion.fluxx.cards").fluxx.cards.CODE,
              lambda: _fluxx(True), lambda: _fluxx(False)),
    "grailccg": ("from companion.grailccg.cards import _load_folder, DATA_DIR\n"
                 "_load_folder(DATA_DIR)",
                 lambda: __import__("companion.grailccg.cards").grailccg.cards.CODE,
                 lambda: _grailccg(True), lambda: _grailccg(False)),
}


def _scenario(cached: bool):
    from companion.koc import scenarios

    scenarios._builtin.cache_clear()
    if cached:
        return scenarios.builtin("grail")
    path = scenarios.FOLDER / "grail.toml"
    return scenarios.read(path.read_text(encoding="utf-8"), str(path))


def _gral(cached: bool):
    from companion.gral import world

    world._load.cache_clear()
    return world.load_world() if cached else world._read(str(world.DATA_DIR.resolve()))


def _mayhem(cached: bool):
    from companion.mayhem import cards

    cards._load.cache_clear()
    return cards.load_catalogue() if cached else cards._Loader(cards.DATA_DIR.resolve()).run()


def _fluxx(cached: bool):
    from companion.fluxx import cards

    cards.default_deck.cache_clear()
    return cards.default_deck() if cached else cards.load_deck()


def _grailccg(cached: bool):
    from companion.grailccg import cards

    cards._default_cards.cache_clear()
    return cards._default_cards() if cached else cards._load_folder(cards.DATA_DIR)


@pytest.mark.parametrize("what", sorted(CACHED))
def test_every_cached_value_is_the_loaded_one(folder, what):
    _, _, with_cache, without = CACHED[what]
    fresh = without()
    first = with_cache()
    assert len(cache_files(folder)) == 1
    again = with_cache()
    assert cache.same(first, fresh) and cache.same(again, fresh)
    assert again is not first
    if what in ("koc", "koc-scenario"):
        assert again == fresh


@pytest.mark.parametrize("what", sorted(CACHED))
def test_the_code_version_covers_every_module_that_loads_it(what):
    """Every module of the package imported while the value is loaded from its files is among
    the sources of its cache key (so editing it makes the cache stale)."""
    load, code_of, _, _ = CACHED[what]
    code = ("import sys\n"
            f"{load}\n"
            "print('\\n'.join(m.__file__ for n, m in sorted(sys.modules.items())\n"
            "                 if n.split('.')[0] == 'companion' and getattr(m, '__file__', None)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env=dict(os.environ, COMPANION_CACHE_DIR="off")).stdout
    loaded = {Path(line).resolve() for line in out.split()}
    covered = {Path(p).resolve() for p in code_of()}
    packages = {(ROOT / "companion" / sub / "__init__.py").resolve()   # imports, version
                for sub in ("", "engine", "koc", "koc/engine", "gral", "mayhem", "fluxx",
                            "grailccg")}
    assert loaded - packages - covered == set()
    assert (ROOT / "companion" / "__init__.py").resolve() in loaded   # its version is in the key


@pytest.mark.parametrize("kind", ["koc", "gral", "mayhem", "fluxx"])
def test_commands_give_the_same_output_with_and_without_the_cache(cli, tmp_path, kind):
    cli.ok("new", kind, "g1", "--player", "Anna", "--player", "Bert", "--player", "Cora",
           "--seed", "3")
    folder = tmp_path / "own-cache"
    runs = {}
    for label, setting in (("off", "off"), ("fill", str(folder)), ("cached", str(folder))):
        env = {"COMPANION_CACHE_DIR": setting}
        runs[label] = [cli.ok(*args, env=env).out for args in
                       (["show", "g1"], ["options", "g1", "Anna"], ["data", "export", kind])]
        if label == "fill":
            assert cache_files(folder)
    assert runs["off"] == runs["fill"] == runs["cached"]


def test_show_and_options_of_a_koc_game_leave_the_charts_undecoded(cli, tmp_path):
    """The quick commands never read the world's deferred parts (docs/performance.md)."""
    cli.ok("new", "koc", "g1", "--player", "Anna", "--player", "Bert", "--seed", "3")
    program = ("import atexit, runpy, sys\n"
               "from companion.koc import world\n"
               "atexit.register(lambda: print('DECODED', sorted({'charts', 'war_steps'}\n"
               "                              & set(vars(world._default_world)))))\n"
               "sys.argv = ['companion', *sys.argv[1:]]\n"
               "runpy.run_module('companion', run_name='__main__')\n")
    env = dict(cli.env, COMPANION_CACHE_DIR=str(tmp_path / "own-cache"))
    outs = [subprocess.run([sys.executable, "-c", program, *args], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True).stdout
            for args in (["show", "g1"], ["show", "g1"], ["options", "g1", "Anna"])]
    assert cache_files(tmp_path / "own-cache")      # the first run filled it, built whole
    assert outs[0].rstrip().endswith("DECODED ['charts', 'war_steps']"), outs[0][-200:]
    assert [out.rstrip().rsplit("\n", 1)[-1] for out in outs[1:]] == ["DECODED []"] * 2, outs
