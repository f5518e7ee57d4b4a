"""Text mode shows a hand in the order players hold it (issue 33, third evening): ``look``
said ``Your cards: TC 3D 5H 4S 7H`` as dealt, while the discard prompt numbered the same
cards by rank -- ``discard 1 2`` must take the cards shown first in both; and ``stats`` said
a best hand ``9S 6C KS + 5C`` as it was dealt.  Over a real socket, as a person on nc."""

from __future__ import annotations

import re

from noddy.protocol.narration import sort_cards
from noddy.protocol.stats_view import best_hand_line

from .harness import running_server, text_connection, text_until


async def test_look_shows_the_hand_sorted_and_numbered_as_the_discard_prompt_numbers_it() -> None:
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname ann\nnew cribbage\nbot 2 random\nready\n")  # (a discard)
        prompt = await text_until(reader, "Your discard:")
        numbered = re.search(r"from ((?:\d+:\w\w ?)+) \(", prompt)
        assert numbered is not None, prompt
        prompted = [pair.split(":")[1] for pair in numbered.group(1).split()]
        assert [pair.split(":")[0] for pair in numbered.group(1).split()] == [
            str(n) for n in range(1, len(prompted) + 1)]
        writer.write(b"look\n")
        cards = (await text_until(reader, "Your cards: ")).split(": ", 1)[1].split()
        assert cards == sort_cards(cards), cards  # as players hold them: by rank, then suit
        assert cards == prompted  # card n of look is card n of discard 1 2
        writer.write(b"discard 1 2\nlook\n")
        after = (await text_until(reader, "Your cards: ")).split(": ", 1)[1].split()
        assert after == cards[2:]  # discard 1 2 laid away the first two cards shown
        writer.close()


def test_stats_shows_a_best_hand_sorted_with_the_turn_up_last() -> None:
    entry = {"preset": "noddy", "best_hand": {"points": 8, "cards": ["9S", "6C", "KS", "5C"], "game": 3}}
    assert best_hand_line(entry) == "noddy: 8 with 6C 9S KS + 5C (game 3)"
    one = {"preset": "noddy", "best_hand": {"points": 0, "cards": ["5C"], "game": 4}}
    assert best_hand_line(one) == "noddy: 0 with 5C (game 4)"


async def test_the_play_prompt_lists_the_cards_sorted_with_go_last() -> None:
    # Seen over nc: "Your turn (count 10): play 8H | play 2C | play QH", the hand as dealt.
    async with running_server() as server:
        reader, writer = await text_connection(server.port)
        writer.write(b"width 1000\nname ann\nnew noddy\nbot 2 random\nready\n")
        prompt = await text_until(reader, "Your turn (count")
        choices = prompt.split(": ", 1)[1].rstrip("\n").split(" | ")
        cards = [choice.split()[1] for choice in choices if choice.startswith("play ")]
        assert len(cards) >= 2 and cards == sort_cards(cards), prompt
        assert choices == [f"play {card}" for card in cards] + choices[len(cards):]  # go, if any, last
        writer.close()
