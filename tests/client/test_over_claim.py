"""A claim too high twice running, typed at the full-screen client against a real server
(issue 33, for the note): the first is refused in words, the second counts as 0, and the
screen says so.  The refusals' words for each message are tested in
``test_counting_and_coach.py``; this walks the keys a person presses."""

from __future__ import annotations

from ..server.harness import running_server
from .test_app import ENTER, running_client, wait_for
from .test_idle import SizedOutput, screen_text


async def test_a_second_over_claim_by_keys_shows_its_result_on_the_screen() -> None:
    """Issue 33 (for the note): a claim too high twice running, typed at a 60x20 client
    against a real server: the first is refused in words, the second counts as 0 and the
    screen says so (the prompt, the status line, the log)."""
    async with running_server(default_level="random") as server:
        async with running_client(server.port, name="Ann", output=SizedOutput(20, 60), quick_start={
                "preset": "cribbage", "players": 2, "computers": 1,
                "options": {"target": 121, "counting": "manual"}}) as (app, keys):
            model = app.model
            while not model.hand_count.claiming:
                await wait_for(lambda: model.hand_count.claiming or (
                    model.game.can_act and not model.game.sending_action) or model.game.deal_count is not None,
                    "my turn")
                if model.hand_count.claiming:
                    break
                seq = model.game.view.seq
                if model.game.deal_count is not None:
                    keys.send_text(" ")
                    await wait_for(lambda: model.game.deal_count is None, "the count to close")
                    continue
                if model.hand_count.mugging:
                    keys.send_text("p")
                elif model.game.discard_size:
                    keys.send_text("12" + ENTER)
                elif model.game.go_is_legal:
                    keys.send_text("g")
                else:
                    playable = model.game.playable()
                    keys.send_text(str(next(i for i, c in enumerate(model.game.hand) if c in playable) + 1))
                await wait_for(lambda: model.game.view.seq != seq, "the move")
            what = "crib" if (model.hand_count.show or {}).get("reason") == "crib" else "hand"
            keys.send_text("29" + ENTER)
            await wait_for(lambda: model.prompt().startswith(f"That {what} does not hold 29."), "the first refusal")
            keys.send_text("28" + ENTER)
            said = f"That {what} does not hold 28 either: your claim counts as 0."
            await wait_for(lambda: model.session.status == said, "the second over-claim's result")
            await wait_for(lambda: any(line.text == f"Ann claims 0 for the {what}." for line in model.game.log),
                           "the claim of 0 in the log")
            # (the deal cannot end before Ann answers the next step: the words stay up)
            assert said in " ".join(" ".join(screen_text(app)).split())
