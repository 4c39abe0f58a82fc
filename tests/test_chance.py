"""The chance derivation: pinned vectors (it must never drift) and uniformity."""

import hashlib
import hmac

import pytest

from adjudicator.chance import Chance, commitment

SEED = "pbem-test-seed"


def test_commitment_is_sha256_of_seed():
    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()
    assert commitment(SEED) == "edc0a2246457f540a10949747809bdb8efafeff9cfbb210b292c0907117c7639"


def test_stream_bytes_are_hmac_of_label_and_counter():
    label = "wallenstein/1618/spring/battle/1/tower"
    stream = Chance(SEED).stream(label)
    expected = b"".join(hmac.new(SEED.encode(), f"{label}/{i}".encode(), hashlib.sha256).digest() for i in range(2))
    assert stream.take(40) == expected[:40]
    assert Chance(SEED).stream(label).take(8).hex() == "7f27bb15c40fec2b"


@pytest.mark.parametrize("label,draw,expected", [
    ("x", lambda s: [s.below(6) for _ in range(10)], [2, 4, 2, 3, 0, 3, 2, 4, 4, 1]),
    ("shuffle", lambda s: s.shuffled(list(range(10))), [2, 4, 7, 6, 9, 0, 8, 1, 5, 3]),
    ("big", lambda s: [s.below(1000003) for _ in range(3)], [471836, 135220, 87215]),
])
def test_pinned_vectors(label, draw, expected):
    assert draw(Chance(SEED).stream(label)) == expected


def test_rejection_sampling_by_hand():
    """below(6) uses 1 byte, keeps 3 bits, rejects 6 and 7 — re-derived with hmac alone."""
    raw = hmac.new(SEED.encode(), b"x/0", hashlib.sha256).digest()
    by_hand = [b & 7 for b in raw if (b & 7) < 6][:10]
    stream = Chance(SEED).stream("x")
    assert [stream.below(6) for _ in range(10)] == by_hand


def test_labels_are_independent_and_repeatable():
    c = Chance(SEED)
    assert c.stream("a").take(32) == c.stream("a").take(32)
    assert c.stream("a").take(32) != c.stream("b").take(32)
    assert Chance("other").stream("a").take(32) != c.stream("a").take(32)


def test_n_equal_one_takes_no_bytes():
    s = Chance(SEED).stream("one")
    assert s.below(1) == 0
    assert s.take(4) == Chance(SEED).stream("one").take(4)


@pytest.mark.parametrize("n", [2, 6, 7, 37, 100])
def test_uniformity_chi_square(n):
    """100,000 draws: chi-square below the 99.9% critical value for n-1 degrees of freedom."""
    stream = Chance("uniformity").stream(f"n={n}")
    draws = 100_000
    counts = [0] * n
    for _ in range(draws):
        counts[stream.below(n)] += 1
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    critical = {2: 10.83, 6: 20.52, 7: 22.46, 37: 67.99, 100: 148.23}[n]
    assert chi2 < critical, (n, chi2, counts[:10])


def test_shuffle_positions_are_uniform():
    stream = Chance("uniformity").stream("shuffle")
    n, trials = 5, 20_000
    counts = [[0] * n for _ in range(n)]
    for _ in range(trials):
        for pos, item in enumerate(stream.shuffled(range(n))):
            counts[item][pos] += 1
    expected = trials / n
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert chi2 < 52.62  # 99.9% critical value, 16 degrees of freedom


def _by_hand(label: str, counts: list[tuple[int, int, int]]) -> tuple[list[int], bytes]:
    """Re-derive ``hits`` with hmac alone: each draw is one byte, its low bits, rejected when
    too large; returns the hits of each (num, den, count) and the stream's next 8 bytes."""
    raw = b"".join(hmac.new(SEED.encode(), f"{label}/{i}".encode(), hashlib.sha256).digest() for i in range(40))
    pos, out = 0, []
    for num, den, count in counts:
        mask, hit = (1 << (den - 1).bit_length()) - 1, 0
        while count:
            value = raw[pos] & mask
            pos += 1
            if value < den:
                count, hit = count - 1, hit + (value < num)
        out.append(hit)
    return out, raw[pos:pos + 8]


@pytest.mark.parametrize("counts", [
    [(2, 3, 40), (1, 3, 33), (5, 6, 1), (0, 7, 9), (7, 7, 12), (100, 255, 50), (1, 256, 70), (3, 200, 300)],
    [(1, 2, 1)] * 100 + [(2, 3, 0), (1, 3, 5)],
])
def test_hits_counts_below_draws_by_hand(counts):
    """``hits`` (the tower's cubes) draws and consumes exactly as one ``below`` per chance, across
    the 32-byte blocks; a stream that already took bytes continues from there."""
    stream = Chance(SEED).stream("hits")
    assert [stream.hits(num, den, count) for num, den, count in counts] == _by_hand("hits", counts)[0]
    assert stream.take(8) == _by_hand("hits", counts)[1]
    mixed, twin = Chance(SEED).stream("mixed"), Chance(SEED).stream("mixed")
    for num, den, count in counts:
        assert mixed.below(den) == twin.below(den)
        assert mixed.hits(num, den, count) == sum(twin.below(den) < num for _ in range(count))
    assert mixed.take(5) == twin.take(5)


def test_hits_of_large_or_overridden_draws_use_below():
    """More than one byte a draw, or a stream whose ``below`` is its own (recorded chance): one
    ``below`` call per chance."""
    stream, twin = Chance(SEED).stream("large"), Chance(SEED).stream("large")
    assert stream.hits(300, 1000, 20) == sum(twin.below(1000) < 300 for _ in range(20))

    class Counting(type(stream)):  # type: ignore[misc]
        calls = 0

        def below(self, n: int) -> int:
            Counting.calls += 1
            return super().below(n)

    twin = Chance(SEED).stream("large")
    assert Counting(SEED, "large").hits(1, 3, 25) == sum(twin.below(3) < 1 for _ in range(25))
    assert Counting.calls == 25
