"""A seat named after a colour of its game gets that colour; otherwise the
GM's pick (``--seat name=email:colour``) or the next free one."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.mailout.colours import assign, split_colour
from pbem.errors import DomainError
from pbem.mailout.reporting import render_turn
from pbem.loop.service import Service
from pbem.store.db import Store
from reports.colors import NAMED


def test_named_seats_keep_their_colour_and_others_take_free_ones():
    assert assign("wallenstein", ["red", "blue", "green", "yellow"]) == \
        {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow"}
    assert assign("wallenstein", ["anna", "yellow", "ben"]) == {"anna": "red", "yellow": "yellow", "ben": "blue"}
    assert assign("wallenstein", ["anna", "ben", "red"], {"anna": "purple"}) == \
        {"anna": "purple", "ben": "blue", "red": "red"}
    with pytest.raises(DomainError, match="already taken"):
        assign("wallenstein", ["red", "anna"], {"anna": "red"})
    with pytest.raises(DomainError, match="not a colour"):
        assign("wallenstein", ["anna", "ben", "cis"], {"anna": "mauve"})
    assert split_colour("anna@example.org:green") == ("anna@example.org", "green")
    assert split_colour("anna@example.org") == ("anna@example.org", None)


def test_the_readme_seats_are_drawn_in_their_own_colours(tmp_path):
    db = str(tmp_path / "p.db")
    args = ["--db", db, "new", "w1", "--game", "wallenstein", "--seed", "colours-" + "x" * 40]
    for seat in ("red", "blue", "green", "yellow"):
        args += ["--seat", f"{seat}={seat}@example.org"]
    assert CliRunner().invoke(cli, args, obj=App(db)).exit_code == 0
    service = Service(Store(db))
    game = service.load("w1")
    html = render_turn(game, {"turn": "start"}, [], only=["green"])[0].rendered.html
    assert NAMED["green"] in html and NAMED["yellow"] in html and NAMED["black"] not in html


def test_the_gm_picks_a_colour(tmp_path):
    db = str(tmp_path / "p.db")
    args = ["--db", db, "new", "w1", "--game", "wallenstein", "--seed", "colours-" + "y" * 40,
            "--seat", "anna=anna@example.org:purple", "--seat", "ben=ben@example.org", "--seat", "cis=cis@x.org"]
    result = CliRunner().invoke(cli, args, obj=App(db))
    assert result.exit_code == 0, result.output
    game = Service(Store(db)).load("w1")
    assert game.created["colors"] == {"anna": "purple", "ben": "red", "cis": "blue"}
    assert game.seats["anna"]["email"] == "anna@example.org"


# -- one source of seat colours for every output ------------------------
COLOURED = {"wallenstein": ["yellow", "red", "black", "blue"], "havoc": ["yellow", "red", "black", "blue"],
            "gods-playground": ["white", "blue", "red"]}


def _new(db: str, game: str, seats: list[str]) -> None:
    args = ["--db", db, "new", "g1", "--game", game, "--seed", "colours-" + "z" * 40, "--weak-seed"]
    for seat in seats:
        args += ["--seat", f"{seat.split(':')[0]}={seat.split(':')[0]}@example.org" + (
            f":{seat.split(':')[1]}" if ":" in seat else "")]
    result = CliRunner().invoke(cli, args, obj=App(db))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game", list(COLOURED))
def test_show_and_replay_json_give_the_games_seat_colours(tmp_path, game):
    import json

    db = str(tmp_path / "p.db")
    _new(db, game, COLOURED[game])
    for args in (["show", "g1", "--seat", "red", "--json"], ["replay", "g1", "--seat", "red", "--json"]):
        result = CliRunner().invoke(cli, ["--db", db, *args], obj=App(db))
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        view = data.get("view", data)
        if args[0] == "show":
            assert data["seat_colors"] == {s: s for s in COLOURED[game]}
        if isinstance(view.get("seats"), dict):  # the seats' own entries carry the same colours
            assert {s: v["color"] for s, v in view["seats"].items()} == {s: s for s in view["seats"]}


def test_a_gods_playground_report_draws_each_seat_in_the_games_colour(tmp_path):
    import io

    from matplotlib import colors as mcolors
    from matplotlib import image

    db = str(tmp_path / "p.db")
    _new(db, "gods-playground", ["anna:green", "ben:red", "cis:blue"])
    game = Service(Store(db)).load("g1")
    rendered = render_turn(game, {"turn": "start"}, [], only=["anna"])[0].rendered
    assert NAMED["green"] in rendered.html  # the report's seat colours are the game's
    pixels = image.imread(io.BytesIO(rendered.images["map.png"]))[..., :3]
    green = mcolors.to_rgb(NAMED["green"])
    assert ((abs(pixels - green) < 0.02).all(axis=-1)).sum() > 50, "anna's pieces are drawn in green on the map"
