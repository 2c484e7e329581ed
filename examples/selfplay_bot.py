#!/usr/bin/env python3
"""Turnpost example bot: plays one whole game against itself, as a third-party program would.

It uses nothing but the public contract (`openapi/openapi.yaml`):

- a client generated from it by openapi-python-client (package `turnpost_api_client`; see
  examples/README.md for the one command that makes it);
- accounts given to it: the token of the confirmation link mailed to an address registered
  for it (`--confirm-token`, exchanged by `POST /v1/auth/confirm`), or a session token of an
  account (`--token`, e.g. from `turnpost account create` on the server's machine);
- personal API tokens (`POST /v1/me/tokens`, scopes `play` and `read`): the session token
  of each account is used once, to make the API token, and never again;
- the account's event stream (`GET /v1/me/stream`, server-sent events): a seat acts when a
  `your-turn` event names the game, and stops at its `game-over`; a dropped stream is
  reopened with `Last-Event-ID`.

Each seat is played by its own thread, as two separate programs would play, choosing a legal
action at random (from `--seed`). The last line printed is one JSON object: the game, its
status, and the actions each seat sent. The exit status is 0 only if the game finished.

    python3 examples/selfplay_bot.py --base-url http://127.0.0.1:8080 --ruleset bag-of-fate \
        --confirm-token <from Bot0's mail> --confirm-token <from Bot1's mail>
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx

from turnpost_api_client import AuthenticatedClient, Client
from turnpost_api_client.api.auth import confirm_account
from turnpost_api_client.api.games import create_game, get_game, get_game_state, join_game, submit_actions
from turnpost_api_client.api.me import create_api_token
from turnpost_api_client.models import (
    ConfirmRequest,
    CreateApiToken,
    CreateGame,
    CreateGameRuleset,
    GameOverNotice,
    GameView,
    JoinGame,
    NewApiTokenView,
    Problem,
    RegisterResponse,
    Scope,
    StateView,
    SubmitActions,
    SubmitResult,
    TurnNotice,
)


class BotError(Exception):
    """The server answered something the bot cannot go on from."""


def expect(answer: Any, kind: type, what: str) -> Any:
    """The parsed answer if it is a `kind`, else a BotError naming the problem."""
    if isinstance(answer, kind):
        return answer
    if isinstance(answer, Problem):
        raise BotError(f"{what}: {answer.status} {answer.title}: {answer.detail}")
    raise BotError(f"{what}: unexpected answer {answer!r}")


def confirmed_account(base_url: str, link_token: str) -> str:
    """The session token of the account a registration's confirmation link creates."""
    anonymous = Client(base_url=base_url, timeout=30.0)
    answer = confirm_account.sync(client=anonymous, body=ConfirmRequest(token=link_token))
    return expect(answer, RegisterResponse, "confirm the registration").token


def api_token(base_url: str, session_token: str, name: str) -> str:
    """An API token (scopes play and read) made with an account's session token."""
    session = AuthenticatedClient(base_url=base_url, token=session_token, timeout=30.0)
    made = create_api_token.sync(
        client=session, body=CreateApiToken(name=f"{name} (example bot)", scopes=[Scope.PLAY, Scope.READ])
    )
    return expect(made, NewApiTokenView, "create an API token").secret


def sse_events(response: httpx.Response) -> Iterator[tuple[str | None, str, str]]:
    """(id, event, data) of each event of a `text/event-stream`; comments (heartbeats) skipped."""
    ident: str | None = None
    event = "message"
    data: list[str] = []
    for line in response.iter_lines():
        if line == "":
            if data:
                yield ident, event, "\n".join(data)
            ident, event, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            ident = value
        elif field == "event":
            event = value
        elif field == "data":
            data.append(value)


class Seat(threading.Thread):
    """One seat of the game, played from its account's event stream."""

    def __init__(self, base_url: str, token: str, game: uuid.UUID, seed: int, deadline: float, max_actions: int):
        super().__init__(daemon=True)
        self.client = AuthenticatedClient(base_url=base_url, token=token, timeout=30.0)
        self.game = game
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.max_actions = max_actions
        self.sent = 0
        self.reconnects = 0
        self.over: GameOverNotice | None = None
        self.error: str | None = None

    def run(self) -> None:
        try:
            self.follow_stream()
        except Exception as exc:  # reported by the main thread
            self.error = f"{type(exc).__name__}: {exc}"

    def follow_stream(self) -> None:
        last_id: str | None = None
        while self.over is None:
            if time.monotonic() > self.deadline:
                raise BotError("the game did not end before the deadline")
            headers = {"Last-Event-ID": last_id} if last_id else {}
            try:
                http = self.client.get_httpx_client()
                with http.stream("GET", "/v1/me/stream", headers=headers, timeout=httpx.Timeout(30.0, read=60.0)) as response:
                    if response.status_code != 200:
                        raise BotError(f"stream: status {response.status_code}")
                    for ident, event, data in sse_events(response):
                        last_id = ident or last_id
                        if self.on_event(event, json.loads(data)):
                            return
                        if time.monotonic() > self.deadline:
                            raise BotError("the game did not end before the deadline")
            except (httpx.TransportError, httpx.StreamError):
                pass
            # The stream ended (it lasts an hour at most) or dropped: open it again where it was.
            self.reconnects += 1
            time.sleep(0.2)

    def on_event(self, event: str, data: dict[str, Any]) -> bool:
        """Handles one event; True once this seat's game is over."""
        if event == "your-turn":
            notice = TurnNotice.from_dict(data)
            if notice.game == self.game:
                self.take_turn()
        elif event == "game-over":
            notice = GameOverNotice.from_dict(data)
            if notice.game == self.game:
                self.over = notice
                return True
        return False

    def take_turn(self) -> None:
        """Acts for as long as the game waits on this seat (compound turns take several steps)."""
        state = expect(get_game_state.sync(self.game, client=self.client), StateView, "state")
        while state.status == "active" and state.seat in state.to_act and state.legal_actions:
            if self.sent >= self.max_actions:
                raise BotError(f"more than {self.max_actions} actions sent")
            choice = self.rng.choice(state.legal_actions)
            answer = submit_actions.sync(
                self.game,
                client=self.client,
                body=SubmitActions(actions=[choice.action], expected_version=state.version),
            )
            if isinstance(answer, Problem) and answer.status == 409:
                # Another seat moved first: read the game again and choose anew.
                state = expect(get_game_state.sync(self.game, client=self.client), StateView, "state")
                continue
            result = expect(answer, SubmitResult, "submit")
            self.sent += 1
            state = result.state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the Turnpost server, e.g. http://127.0.0.1:8080")
    parser.add_argument(
        "--ruleset",
        default="bag-of-fate",
        choices=[r.value for r in CreateGameRuleset],
        help="a ruleset id from GET /v1/rulesets",
    )
    parser.add_argument(
        "--confirm-token",
        action="append",
        default=[],
        help="the token of the confirmation link mailed to an address registered for a seat (once per seat)",
    )
    parser.add_argument(
        "--token",
        action="append",
        default=[],
        help="a session token of an account for a seat, e.g. from `turnpost account create` (once per seat)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seeds the random choices")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before giving up")
    parser.add_argument("--max-actions", type=int, default=20_000, help="per seat, before giving up")
    args = parser.parse_args()

    deadline = time.monotonic() + args.timeout
    sessions = [confirmed_account(args.base_url, t) for t in args.confirm_token] + args.token
    if not sessions:
        parser.error("give one account per seat (--confirm-token or --token)")
    args.seats = len(sessions)
    tokens = [api_token(args.base_url, session, f"Bot{i}") for i, session in enumerate(sessions)]
    host = AuthenticatedClient(base_url=args.base_url, token=tokens[0], timeout=30.0)
    game = expect(
        create_game.sync(client=host, body=CreateGame(ruleset=CreateGameRuleset(args.ruleset), seats=args.seats)),
        GameView,
        "create the game",
    )
    seats = [Seat(args.base_url, token, game.id, args.seed * 1000 + i, deadline, args.max_actions) for i, token in enumerate(tokens)]
    # Every seat listens before the game starts, so that no turn is announced unheard (the
    # stream also sends, on connecting, a `your-turn` for every game waiting on the account).
    for seat in seats:
        seat.start()
    for token in tokens[1:]:
        guest = AuthenticatedClient(base_url=args.base_url, token=token, timeout=30.0)
        expect(join_game.sync(game.id, client=guest, body=JoinGame()), GameView, "join the game")
    for seat in seats:
        seat.join(max(0.0, deadline - time.monotonic()) + 5.0)
    errors = [seat.error for seat in seats if seat.error]
    final = expect(get_game.sync(game.id, client=host), GameView, "read the game")
    summary = {
        "game": str(game.id),
        "ruleset": args.ruleset,
        "status": str(final.status),
        "actions": [seat.sent for seat in seats],
        "reconnects": sum(seat.reconnects for seat in seats),
        "errors": errors,
    }
    print(json.dumps(summary))
    return 0 if not errors and summary["status"] == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
