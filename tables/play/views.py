"""The table's page and its actions: thin views that parse input, call one service or selector, and render."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tables.models import Table
from tables.play import member_actions, pace, privacy, snapshots
from tables.play.page_parts import table_parts
from tables.play.rendering import render_board, snapshot_html
from tables.play.request_numbers import whole_number
from tables.play.services import play as play_services
from tables.play.services import rematch as rematch_services
from tables.play.services import tables as table_services
from tables.play.services.errors import NoSuchTable, TableError
from tables.play.table_links import table_links


def _private(request: HttpRequest, table: Table) -> HttpResponse:
    """A private table, to a link holder it is not for (tables.play.privacy): 403 and whom to ask, nothing of the
    table but who opened it. An htmx request gets the sentence where refusals go (#table-error)."""
    error = privacy.refusal(table)
    if request.htmx:
        return _refused(request, table.code, error)
    return render(request, "tables/play/private.html", {"message": str(error)}, status=error.status)


def table(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    if not privacy.may_watch(found, request.user):
        return _private(request, found)
    return render(request, "tables/play/table.html", {
        "table": found, "board_html": render_board(found, request.user), "parts": table_parts(request, found),
        "links": table_links(found), "motion": motion_options(request.user)})


def motion_options(user: object) -> dict[str, object]:
    """How this viewer's page moves and sounds (static/js/motion.js, sounds.js): how long it holds a finished trick
    (their `trick_pause`), how long each replayed move stays, whether cards make a sound (their `card_sounds`), and
    whether their turn in a background tab shows a notification (their `live_turn_notices`, static/js/turn.js).
    A visitor gets the club's defaults."""
    return {"pause_ms": pace.trick_pause_ms(str(getattr(user, "trick_pause", "normal"))),
            "step_ms": round(1000 * pace.REPLAYED_MOVE),
            "sounds": "on" if getattr(user, "card_sounds", False) else "off",
            "notify": "on" if getattr(user, "live_turn_notices", False) else "off"}


def board(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    if not privacy.may_watch(found, request.user):
        return _private(request, found)
    return HttpResponse(render_board(found, request.user))


def _refused(request: HttpRequest, code: str, error: TableError) -> HttpResponse:
    if request.htmx:
        response = render(request, "tables/play/table_error.html", {"message": str(error)}, status=error.status)
        response["HX-Retarget"] = "#table-error"
        response["HX-Reswap"] = "outerHTML"
        return response
    messages.error(request, str(error))
    response = redirect("table", code=code)
    return response


def _after(request: HttpRequest, code: str, version: object = None) -> HttpResponse:
    """The board after a change. A service that returns the version it made left a snapshot of it in
    this process, so the mover's board is built without reading the table again."""
    if not request.htmx:
        return redirect("table", code=code)
    snapshot = snapshots.recall(code, version) if isinstance(version, int) else None
    if snapshot is not None:
        return HttpResponse(snapshot_html(snapshot, request.user).html)
    found = Table.objects.get(code=code)
    return HttpResponse(render_board(found, request.user))


def _table_action(request: HttpRequest, code: str, action: Callable[[Table], object]) -> HttpResponse:
    """Run one service for this table; a refusal is shown as it is and changes nothing."""
    found = get_object_or_404(Table, code=code)
    if not privacy.may_watch(found, request.user):
        return _private(request, found)
    try:
        made = action(found)
    except TableError as error:
        return _refused(request, code, error)
    return _after(request, code, made)


def _refused_at(request: HttpRequest, code: str, error: TableError) -> HttpResponse:
    """A member action's refusal; to one who may not watch the table (a private one), only that. Only a refusal
    costs the privacy read: a member who may act is seated, and so may watch."""
    found = Table.objects.filter(code=code).first()
    if found is not None and not privacy.may_watch(found, request.user):
        return _private(request, found)
    return _refused(request, code, error)


def _member_action(request: HttpRequest, code: str, kind: str) -> HttpResponse:
    """A move or "ready": the service locks the table by the address's code, its first and only read of the row
    (a table that is not there is a 404, as for every page of a table)."""
    try:
        made = member_actions.act(kind=kind, table_code=code, user=request.user, fields=request.POST)
    except NoSuchTable:
        raise Http404(gettext("There is no such table.")) from None
    except TableError as error:
        return _refused_at(request, code, error)
    return _after(request, code, made)


@require_POST
def move(request: HttpRequest, code: str) -> HttpResponse:
    """A move by POST: the page's way when its socket is closed (static/js/sockets.js), read as the socket's."""
    return _member_action(request, code, member_actions.MOVE)


@require_POST
def premove(request: HttpRequest, code: str) -> HttpResponse:
    """A card chosen ahead of the member's turn (or none). Its answer is the member's board as the database now has
    it: choosing makes no new version (nobody else may learn of it), so no kept board or snapshot of this version
    shows it (tables.play.rendering reads the seat's premove count for this)."""
    try:
        member_actions.choose_premove(table_code=code, user=request.user, fields=request.POST)
    except NoSuchTable:
        raise Http404(gettext("There is no such table.")) from None
    except TableError as error:
        return _refused_at(request, code, error)
    if not request.htmx:
        return redirect("table", code=code)
    return HttpResponse(render_board(Table.objects.get(code=code), request.user))


@require_POST
def ready(request: HttpRequest, code: str) -> HttpResponse:
    return _member_action(request, code, member_actions.READY)


@require_POST
def away_choice(request: HttpRequest, code: str) -> HttpResponse:
    """After a round, wait for a member who is away or go on with the bot (`kind`: "wait" or "go_on"), by POST as
    over the socket."""
    kind = request.POST.get("kind")
    if kind not in (member_actions.WAIT, member_actions.GO_ON):
        kind = ""
    return _member_action(request, code, kind)


@require_POST
def away_seen(request: HttpRequest, code: str) -> HttpResponse:
    """The member closes their "while you were away"."""
    return _table_action(request, code, lambda table: play_services.away_report_seen(table_id=table.pk,
                                                                                     user=request.user))


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    return _table_action(request, code, lambda table: table_services.join_table(table_id=table.pk, user=request.user))


@require_POST
def leave(request: HttpRequest, code: str) -> HttpResponse:
    found = get_object_or_404(Table, code=code)
    if not privacy.may_watch(found, request.user):
        return _private(request, found)
    try:
        table_services.leave_table(table_id=found.pk, user=request.user)
    except TableError as error:
        return _refused(request, found.code, error)
    if found.status == Table.Status.OPEN:
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": reverse("lobby")})
        return redirect("lobby")
    return _after(request, code)


@require_POST
def add_bot(request: HttpRequest, code: str) -> HttpResponse:
    """A bot in the first empty seat, at the level chosen beside the button (none sent: the table's)."""
    level = request.POST.get("level") or None
    return _table_action(request, code, lambda table: table_services.add_bot(
        table_id=table.pk, user=request.user, bot_level=level))


@require_POST
def remove_bot(request: HttpRequest, code: str) -> HttpResponse:
    def remove(table: Table) -> None:
        position = whole_number(request.POST.get("position"))
        if position is None:
            raise TableError(gettext("Say which seat's bot to remove."))
        table_services.remove_bot(table_id=table.pk, user=request.user, position=position)

    return _table_action(request, code, remove)


@require_POST
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    """A member's answer to the finished table's rematch (`answer` yes or no; `offer`: the rematch their board showed,
    empty when it showed none). Once it made a table where they sit, their page goes there: with htmx, by the board
    answered, whose link to it static/js/rematch.js follows, as it follows the same board pushed over the socket (one
    navigation, whichever comes first: an HX-Redirect besides would start a second, aborting the first)."""
    found = get_object_or_404(Table, code=code)
    if not privacy.may_watch(found, request.user):
        return _private(request, found)
    shown = request.POST.get("offer") or ""
    offer = whole_number(shown) if shown else None
    answer = request.POST.get("answer")
    try:
        if (shown and offer is None) or answer not in ("yes", "no"):
            raise TableError(gettext("That is not an answer to a rematch; reload the page."))
        answered = rematch_services.answer_rematch(table_code=code, user=request.user, accept=answer == "yes",
                                                   offer=offer)
    except TableError as error:
        return _refused(request, code, error)
    if answered.go_to is None or request.htmx:
        return _after(request, code)
    return redirect("table", code=answered.go_to)
