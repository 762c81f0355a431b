"""Tests of the reversi Python package: behaviour against known values, never timings."""

from __future__ import annotations

import _thread
import copy
import pickle
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import reversi
from reversi import Game, Position

DATA = Path(__file__).resolve().parents[2] / "reversi-core" / "tests" / "data"


def perft_table() -> list[tuple[int, dict[str, int]]]:
    rows = []
    for line in (DATA / "perft.tsv").read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("depth"):
            continue
        cells = (line.split("\t") + ["", "", ""])[:4]
        names = ("oeis", "edax", "no-pass")
        rows.append((int(cells[0]), {n: int(c) for n, c in zip(names, cells[1:]) if c}))
    return rows


def ffo() -> list[tuple[int, Position, int]]:
    out = []
    for n, line in enumerate((DATA / "ffo-40-59.obf").read_text().splitlines(), start=40):
        board, rest = line.split(";", 1)
        best = int(rest.split(";")[0].split(":")[1])
        out.append((n, Position(board), best))
    return out


# ---------------------------------------------------------------- positions and games


def test_start_position() -> None:
    p = Position()
    assert p == Position.initial()
    assert p.side_to_move == "black"
    assert p.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert (p.count("black"), p.count("white"), p.empties) == (2, 2, 60)
    assert p["d4"] == "white" and p["e4"] == "black" and p["a1"] is None
    assert p[27] == "white"  # d4 is index 27
    assert p.flips("d3") == ["d4"]
    assert p.flips("a1") == []
    assert not p.must_pass and not p.is_game_over and p.outcome is None


def test_board_string_round_trip_and_masks() -> None:
    p = Position.from_transcript("f5d6c3d3c4")
    assert Position(p.board) == p
    assert Position.from_masks(p.black, p.white, p.side_to_move) == p
    assert Position.from_player_opponent(p.player, p.opponent, p.side_to_move) == p
    assert p.to_masks() == (p.player, p.opponent)
    assert p.legal_mask == sum(1 << i for i in range(64) if p.is_legal(i))
    assert eval(repr(p), {"Position": Position}) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert len({p, Position(p.board)}) == 1


def test_transcripts() -> None:
    g = Game.from_transcript("f5d6c3d3c4")
    assert g.transcript() == "f5d6c3d3c4"
    assert g.moves == ["f5", "d6", "c3", "d3", "c4"]
    assert g.position == Position.from_transcript("f5d6c3d3c4")
    assert g.position.side_to_move == "white"
    assert len(g) == 5 and len(g.positions) == 6
    assert g.last_move == ("black", "c4")


def test_play_and_undo_restore_state() -> None:
    g = Game()
    before = (g.position, g.transcript(), len(g))
    turn = g.play("f5")
    assert (turn.color, turn.square, turn.flips, turn.passed, turn.outcome) == (
        "black", "f5", ["e5"], None, None)
    g.play(43)  # d6 by index
    g.undo()
    g.undo()
    assert (g.position, g.transcript(), len(g)) == before
    with pytest.raises(reversi.ReversiError, match="nothing to undo"):
        g.undo()
    # undo_turn goes back to black's move.
    g = Game.from_transcript("f5d6c3d3")
    assert g.undo_turn("black") == 2
    assert g.transcript() == "f5d6"
    h = g.copy()
    h.play(h.legal_moves()[0])
    assert len(h) == len(g) + 1 and g == Game.from_transcript("f5d6")


def test_wipeout_game_over_and_result() -> None:
    g = Game.from_transcript("e6f4e3f6g5d6e7f5")
    turn = g.play("c5")  # white has no disc left
    assert turn.outcome == "black"
    assert g.is_over and g.outcome == "black" and g.position.is_game_over
    assert g.position.final_counts() == (13, 0)
    assert g.position.final_counts(wof=True) == (64, 0)
    with pytest.raises(reversi.GameOverError, match="the game is over"):
        g.play("a1")
    with pytest.raises(reversi.GameOverError):
        reversi.solve(g.position)
    with pytest.raises(reversi.GameOverError):
        reversi.Engine("easy").choose(g.position)


def test_passes() -> None:
    # White to move has no move; black has one (h8 flips g7... through the diagonal).
    board = "X" * 8 * 7 + "XXXXXO--"
    p = Position(board + " O")
    assert p.legal_moves() == [] and p.must_pass and not p.is_game_over
    q = p.play("pass")
    assert q.side_to_move == "black" and q.legal_moves() == ["g8"]
    with pytest.raises(reversi.IllegalMoveError, match="cannot pass"):
        Position().play("pass")
    assert reversi.Engine("hard").choose(p).best_move == "pass"
    s = reversi.solve(p, scoring="disc")
    assert s.best_move == "pass" and s.pv[0] == "pass"
    # A game records the forced pass at once, and the pass counts in its transcript.
    g = Game(p)
    assert g.passes == [(0, "white")] and g.moves == ["pass"] and g.position == q
    turn = g.play("g8")
    assert turn.outcome == "black" and g.is_over and g.position.final_counts() == (63, 0)
    t = "d3e3f3e2d1c2e6d6b1f7d7c6g8e8b6d2d8c8PSf5g6"
    g = Game.from_transcript(t)
    assert g.passes == [(18, "black")] and g.moves[18] == "pass"
    assert g.transcript(passes=True).lower() == t.lower()
    assert Game.from_transcript(t.replace("PS", "")).position == g.position


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        (lambda: Position("X-O"), reversi.ReversiError, "a board has 64 squares, found 3"),
        (lambda: Position("Z" + "-" * 63 + " X"), reversi.ReversiError, "unexpected character 'Z'"),
        (lambda: Position("-" * 64 + " Q"), reversi.ReversiError, "expected the side to move"),
        (lambda: Position().play("z9"), reversi.ReversiError, "is not a move"),
        (lambda: Position().play(64), reversi.ReversiError, "64 is not a square index"),
        (lambda: Position().play(-1), reversi.ReversiError, "-1 is not a square index"),
        (lambda: Position().play("d4"), reversi.IllegalMoveError, "square d4 is occupied"),
        (lambda: Position().play("a1"), reversi.IllegalMoveError, "a1 flips no disc"),
        (lambda: Position().count("red"), reversi.ReversiError, "is not a colour"),  # type: ignore[arg-type]
        (lambda: Game.from_transcript("f5f5"), reversi.ReversiError, "transcript ply 2"),
        (lambda: Position.from_masks(1, 1), reversi.ReversiError, "overlap on a1"),
        (lambda: reversi.perft(Position(), 3, "nope"), reversi.ReversiError, "not a perft convention"),  # type: ignore[arg-type]
        (lambda: reversi.perft(Position(), 3, kernel="sse"), reversi.ReversiError, "not a kernel"),  # type: ignore[arg-type]
        (lambda: reversi.solve(Position(), scoring="x"), reversi.ReversiError, "not a scoring rule"),  # type: ignore[arg-type]
        (lambda: reversi.Engine("grandmaster"), reversi.ReversiError, "is not an engine"),
        (lambda: Position().symmetry("twist"), reversi.ReversiError, "is not a symmetry"),
        (lambda: reversi.hints(Position(), time=-1.0), reversi.ReversiError, "not a time"),
    ],
)
def test_errors_carry_the_typed_message(call, exc, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(exc, match=message):
        call()
    assert issubclass(reversi.ReversiError, ValueError)


def test_failed_move_leaves_game_unchanged() -> None:
    g = Game.from_transcript("f5d6")
    before = (g.position, g.transcript())
    with pytest.raises(reversi.IllegalMoveError):
        g.play("a1")
    with pytest.raises(TypeError):
        g.play(3.5)  # type: ignore[arg-type]
    assert (g.position, g.transcript()) == before


# ---------------------------------------------------------------- symmetries


INVERSE = {"rotate90": "rotate270", "rotate270": "rotate90"}


def test_symmetries_round_trip() -> None:
    p = Position.from_transcript("f5d6c3d3c4f4c5b3c2")
    images = p.symmetries()
    assert len(images) == 8 and images[0] == p
    for name, image in zip(reversi.SYMMETRIES, images):
        assert p.symmetry(name) == image
        assert image.symmetry(INVERSE.get(name, name)) == p
        # Legal moves map square by square, and perft is invariant.
        assert sorted(image.legal_moves()) == sorted(
            reversi.symmetry_square(name, m) for m in p.legal_moves())
        assert reversi.perft(image, 4) == reversi.perft(p, 4)
    assert reversi.symmetry_square("rotate90", "a1") == "h1"
    start = Position()
    assert sum(start.symmetry(i) == start for i in range(8)) == 4


# ---------------------------------------------------------------- perft


@pytest.mark.parametrize("convention", ["oeis", "edax", "no-pass"])
def test_perft_start_position_depth_1_to_9(convention: str) -> None:
    table = perft_table()
    for depth, counts in table[:9]:
        assert reversi.perft(Position(), depth, convention) == counts[convention], depth  # type: ignore[arg-type]


def test_perft_depth_10_threads_and_hash() -> None:
    counts = dict(perft_table())[10]
    for convention, expected in counts.items():
        assert reversi.perft(Position(), 10, convention, threads=2) == expected  # type: ignore[arg-type]
    assert reversi.perft(Position(), 10, "edax", threads=2, hash_mb=16) == counts["edax"]
    assert reversi.perft(Position(), 9, kernel="portable") == 3005288
    assert reversi.perft(Position(), 0) == 1


def test_perft_stop_token() -> None:
    token = reversi.StopToken()
    token.stop()
    assert token.is_set
    with pytest.raises(reversi.SearchStopped):
        reversi.perft(Position(), 12, stop=token)
    token.reset()
    assert reversi.perft(Position(), 5, stop=token) == 1396


# ---------------------------------------------------------------- solver and hints


@pytest.mark.parametrize("n", [40, 41])
def test_solver_matches_ffo(n: int) -> None:
    _, pos, best = next(x for x in ffo() if x[0] == n)
    s = reversi.solve(pos)
    assert s.score == best
    assert pos.is_legal(s.best_move) and s.pv[0] == s.best_move and s.nodes > 0
    # The principal variation reaches the end with the solved score.
    end = pos
    for m in s.pv:
        end = end.play(m)
    assert end.is_game_over
    b, w = end.final_counts(wof=True)
    assert (b - w if pos.side_to_move == "black" else w - b) == best
    assert reversi.Solver(table_bits=20).solve(pos, wld=True).score == (best > 0) - (best < 0)


def test_hints_on_a_small_endgame_agree_with_the_solver() -> None:
    pos = Position("OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X")
    h = reversi.hints(pos)
    assert all(x.exact for x in h)
    assert sorted(x.move for x in h) == sorted(pos.legal_moves())
    assert [x.score for x in h] == sorted((x.score for x in h), reverse=True)
    assert h[0].score == reversi.solve(pos, scoring="disc").score
    mid = reversi.hints(Position(), depth=3)
    assert len(mid) == 4 and not any(x.exact for x in mid) and all(x.depth == 3 for x in mid)


def test_solver_limits_and_stop() -> None:
    _, pos, _ = ffo()[0]
    with pytest.raises(reversi.SearchStopped, match="after"):
        reversi.solve(pos, nodes=1000)
    token = reversi.StopToken()
    token.stop()
    with pytest.raises(reversi.SearchStopped):
        reversi.solve(pos, stop=token)


def test_stop_from_another_thread_while_the_gil_is_released() -> None:
    token = reversi.StopToken()
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            # The start position cannot be solved: only the token (or the 60 s safety limit) ends it.
            reversi.solve(Position(), time=60.0, stop=token)
        except BaseException as e:  # noqa: BLE001
            outcome.append(e)

    t = threading.Thread(target=run)
    t.start()
    # Python code runs here while the solve runs, because the solve released the GIL.
    total = sum(i * i for i in range(200_000))
    assert total > 0
    assert t.is_alive()
    token.stop()
    t.join()
    assert len(outcome) == 1 and isinstance(outcome[0], reversi.SearchStopped)


def test_ctrl_c_interrupts_a_solve() -> None:
    # Python's own SIGINT handler, whatever the process was started with, and Ctrl-C pressed
    # every 0.2 s until the solve returns (one press that lands before the call is already
    # taken as KeyboardInterrupt by pytest.raises; none must be needed twice). A binding that
    # never looks at signals runs the full 60 s and ends with SearchStopped: the test fails.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    done = threading.Event()

    def press() -> None:
        while not done.wait(0.2):
            _thread.interrupt_main()

    presser = threading.Thread(target=press)
    presser.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            reversi.solve(Position(), time=60.0)
    finally:
        done.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 30.0


# ---------------------------------------------------------------- levels and evaluation


def test_levels_choose_legal_reproducible_moves() -> None:
    pos = Position.from_transcript("f5d6c3d3c4")
    for level in reversi.LEVELS:
        r = reversi.Engine(level, seed=3).choose(pos, nodes=20_000)
        assert pos.is_legal(r.best_move) and r.pv[0] == r.best_move
    a = reversi.choose_move(pos, "hard", nodes=30_000)
    b = reversi.choose_move(pos, "hard", nodes=30_000)
    assert (a.best_move, a.score, a.nodes) == (b.best_move, b.score, b.nodes)
    assert reversi.Engine("depth:2").name == "depth:2"


def test_a_game_between_two_levels_ends_with_a_result() -> None:
    engines = {"black": reversi.Engine("normal", seed=1), "white": reversi.Engine("easy", seed=2)}
    g = Game()
    while not g.is_over:
        g.play(engines[g.position.side_to_move].choose(g.position).best_move)
    b, w = g.position.final_counts()
    assert g.outcome == ("black" if b > w else "white" if w > b else "draw")
    assert Game.from_transcript(g.transcript()).position == g.position


def test_evaluate() -> None:
    v = reversi.evaluate(Position())
    assert isinstance(v, float) and abs(v) < 5
    # Colour symmetric: the same position with colours and side swapped scores the same.
    p = Position.from_transcript("f5d6c3d3c4f4")
    q = Position.from_player_opponent(p.player, p.opponent, "white" if p.side_to_move == "black" else "black")
    assert reversi.evaluate(p) == reversi.evaluate(q)


# ---------------------------------------------------------------- NumPy batches


def sample_positions() -> list[Position]:
    g = Game.from_transcript("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1")
    return g.positions


def test_masks_and_planes() -> None:
    positions = sample_positions()
    masks = reversi.positions_to_masks(positions)
    assert masks.shape == (len(positions), 2) and masks.dtype == np.uint64
    assert [tuple(int(x) for x in row) for row in masks] == [p.to_masks() for p in positions]
    planes = reversi.masks_to_planes(masks)
    assert planes.shape == (len(positions), 2, 8, 8) and planes.dtype == np.uint8
    for p, plane in zip(positions, planes):
        assert np.array_equal(plane, p.to_planes())
    assert planes[0, 1, 3, 3] == 1  # d4 (row 3, column 3) is white's, the side not to move
    f32 = reversi.masks_to_planes(positions, dtype=np.float32)
    assert f32.dtype == np.float32
    assert np.array_equal(reversi.planes_to_masks(f32), masks)
    assert np.array_equal(reversi.to_masks(planes.astype(bool)), masks)
    empty = reversi.masks_to_planes(np.zeros((0, 2), dtype=np.uint64))
    assert empty.shape == (0, 2, 8, 8)


def test_batches_match_per_position_results() -> None:
    positions = sample_positions()
    masks = reversi.to_masks(positions)
    ev = reversi.evaluate_batch(masks)
    assert ev.shape == (len(positions),) and ev.dtype == np.float32
    assert ev.tolist() == [reversi.evaluate(p) for p in positions]
    assert np.array_equal(reversi.evaluate_batch(reversi.masks_to_planes(masks)), ev)
    legal = reversi.legal_moves_batch(masks)
    assert legal.dtype == np.uint64 and [int(x) for x in legal] == [p.legal_mask for p in positions]
    lp = reversi.legal_moves_batch(masks, planes=True)
    assert lp.shape == (len(positions), 8, 8) and int(lp.sum()) == sum(len(p.legal_moves()) for p in positions)
    moves = np.array([int((p.legal_mask & -p.legal_mask).bit_length() - 1) for p in positions[:-1]])
    after = reversi.play_batch(masks[:-1], moves)
    assert after.shape == (len(moves), 2) and after.dtype == np.uint64
    for p, m, row in zip(positions, moves, after):
        assert tuple(int(x) for x in row) == p.play(int(m)).to_masks()
    sym = reversi.symmetries_batch(masks)
    assert sym.shape == (len(positions), 8, 2) and sym.dtype == np.uint64
    for p, images in zip(positions, sym):
        assert [tuple(int(x) for x in r) for r in images] == [q.to_masks() for q in p.symmetries()]


def test_solve_batch() -> None:
    small = Position("OOOOOOOOXXXXXXOO-XOOOXO--XOXOXO-XXXXOOO-XXXOOO--XXXOO---XXXX--O- X")
    over = Game.from_transcript("e6f4e3f6g5d6e7f5c5").position
    scores = reversi.solve_batch([small, over, small], scoring="disc", threads=2)
    assert scores.dtype == np.int32 and scores.shape == (3,)
    expected = reversi.solve(small, scoring="disc").score
    b, w = over.final_counts()
    finished = (b - w) if over.side_to_move == "black" else (w - b)
    assert scores.tolist() == [expected, finished, expected]
    assert reversi.solve_batch([small], wld=True).tolist() == [(expected > 0) - (expected < 0)]


def test_batch_errors() -> None:
    with pytest.raises(reversi.ReversiError, match="row 1: black and white discs overlap on a1"):
        reversi.evaluate_batch(np.array([[2, 1], [1, 1]], dtype=np.uint64))
    with pytest.raises(reversi.ReversiError, match="found shape"):
        reversi.evaluate_batch(np.zeros((3, 3), dtype=np.uint64))
    masks = reversi.to_masks([Position(), Position()])
    with pytest.raises(reversi.IllegalMoveError, match="row 1: a1 flips no disc"):
        reversi.play_batch(masks, [19, 0])
    with pytest.raises(reversi.ReversiError, match="2 boards but 1 moves"):
        reversi.play_batch(masks, [19])
    with pytest.raises(reversi.ReversiError, match="row 0: 99 is not a square index|row 0: 255"):
        reversi.play_batch(masks, [99, 19])


def test_copy_module() -> None:
    g = Game.from_transcript("f5")
    assert copy.copy(g) == g
