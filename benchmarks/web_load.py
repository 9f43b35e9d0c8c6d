"""The web view under load on the loopback interface: prints figures, asserts nothing.

    python benchmarks/web_load.py [--seconds 10] [--readers 8] [--players 4]

Starts ``companion serve``'s application under uvicorn on 127.0.0.1 (a fresh 4-player Gral
game in a temporary store), then for ``--seconds`` seconds: ``--readers`` clients load report
pages of random players and turns as fast as they can, every player sends legal orders from the
order form again and again, and the moderator's page runs a turn every two seconds. Prints
requests per second and the median and 95th percentile latency of page loads and of
submissions, the turns run, and whether any request failed or any accepted submission is
missing from the store (tests/web/test_web_concurrency.py is the bounded test of the same).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure, machine  # noqa: E402

PASSWORD = "benchmark password"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1798761600")

    import httpx

    from companion import service
    from companion.registry import get_kind
    from companion.store import Store
    from companion.web.config import WebConfig, hash_password
    from companion.web.server import server

    folder = Path(tempfile.mkdtemp(prefix="companion-web-load-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    names = ["Anna", "Bert", "Cora", "Dora", "Emil", "Finn", "Gert", "Hans"][:args.players]
    store = Store(folder / "s.sqlite3", create=True)
    service.new_game(store, "gral", "g", names, seed="load", base_url=base)
    kind = get_kind("gral")
    config = WebConfig(moderator_password_hash=hash_password(PASSWORD), max_failures=10 ** 9)
    srv = server(store.path, None, config, None, port=port)
    import logging

    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    logging.getLogger("companion.web.access").setLevel(logging.WARNING)

    stop = threading.Event()
    pages: list[float] = []
    posts: list[float] = []
    failures: list[str] = []
    accepted: list[tuple[str, str]] = []
    turns = [0]

    def links() -> dict[str, str]:
        mine = Store(store.path)
        try:
            game = mine.game("g")
            out = {}
            for number in range(mine.turn("g").number + 1):
                turn = mine.turn("g", number)
                for name in names:
                    out[(name, number)] = service.link(game, number, name, turn.hash)
            return out
        finally:
            mine.close()

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(timeout=60) as client:
            known = links()
            while not stop.is_set():
                if rng.random() < 0.05:
                    known = links()
                url = known[rng.choice(list(known))]
                start = time.perf_counter()
                answer = client.get(url)
                pages.append(time.perf_counter() - start)
                if answer.status_code != 200:
                    failures.append(f"GET {answer.status_code}")

    def player(name: str, seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(timeout=60) as client:
            while not stop.is_set():
                mine = Store(store.path)
                try:
                    turn = mine.turn("g")
                    url = service.link(mine.game("g"), turn.number, name, turn.hash)
                    lines = kind.options_for(turn.state, name)
                finally:
                    mine.close()
                form_url = url.replace("?h=", "/orders?h=")
                form = client.get(form_url)
                found = re.search(r'name="csrf" value="([^"]+)"', form.text)
                if found is None:       # a turn ran since the link was read: the form is closed
                    continue
                csrf = found.group(1)
                text = "\n".join(rng.sample(lines, k=min(2, len(lines)))) + "\n" if lines \
                    else "withdraw\n"
                start = time.perf_counter()
                answer = client.post(form_url, data={"csrf": csrf, "orders": text,
                                                     "action": "submit"})
                posts.append(time.perf_counter() - start)
                if answer.status_code == 200:
                    accepted.append((name, text))
                elif answer.status_code not in (409, 422):
                    failures.append(f"POST {answer.status_code}")

    def moderator() -> None:
        with httpx.Client(base_url=base, timeout=120, follow_redirects=True) as client:
            page = client.get("/moderator")
            csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
            client.post("/moderator/login", data={"csrf": csrf, "password": PASSWORD})
            while not stop.wait(2.0):
                page = client.get("/moderator/game/g")
                if 'name="expect"' not in page.text:
                    return          # the game is over
                csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
                expect = re.search(r'name="expect" value="(\d+)"', page.text).group(1)
                answer = client.post("/moderator/game/g/turn", data={"csrf": csrf,
                                                                      "expect": expect})
                if answer.status_code == 200:
                    turns[0] += 1
                elif answer.status_code != 409:
                    failures.append(f"turn {answer.status_code}")

    workers = [threading.Thread(target=reader, args=(k,)) for k in range(args.readers)]
    workers += [threading.Thread(target=player, args=(n, k)) for k, n in enumerate(names)]
    workers.append(threading.Thread(target=moderator))
    began = time.perf_counter()
    for w in workers:
        w.start()
    time.sleep(args.seconds)
    stop.set()
    for w in workers:
        w.join(120)
    elapsed = time.perf_counter() - began
    srv.should_exit = True
    thread.join(10)
    stored = sorted((s.player, s.text) for s in store.submissions("g"))
    lost = len(set(accepted) - set(stored))
    total = len(pages) + len(posts)
    print(f"machine: {machine()}")
    print(f"{args.seconds:.0f} s, {args.readers} readers, {len(names)} players, a turn every 2 s "
          f"({turns[0]} run)")
    print(f"requests:     {total} ({total / elapsed:.0f} per second)")
    print(f"page loads:   {len(pages)}, median {statistics.median(pages) * 1000:.1f} ms, "
          f"95th percentile {p95(pages) * 1000:.1f} ms")
    if posts:
        print(f"submissions:  {len(posts)} ({len(accepted)} accepted), median "
              f"{statistics.median(posts) * 1000:.1f} ms, 95th percentile "
              f"{p95(posts) * 1000:.1f} ms")
    print(f"errors: {len(failures)}; accepted submissions missing from the store: {lost}")
    figure("web: requests per second under load", total / elapsed, "req/s")
    figure("web: page load, 95th percentile", p95(pages) * 1000, "ms")
    store.close()


if __name__ == "__main__":
    main()
