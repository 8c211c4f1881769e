"""The member's profile page and table-page preferences; everything else about accounts is allauth's."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm, TurnSoundForm
from accounts.members import suggest_members


def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form}, status=400 if form.errors else 200)


def _same_site_next(request: HttpRequest) -> str:
    """Where the toggle was clicked, if that is a page of this site: anything else would make the toggle an
    open redirect."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""


@require_POST
def turn_sound(request: HttpRequest) -> HttpResponse:
    """Login is the site's default (LoginRequiredMiddleware); CSRF is Django's middleware's."""
    form = TurnSoundForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Sound on my turn is either on or off.")
    on = form.save(request.user)
    back = _same_site_next(request)
    if request.htmx:
        return render(request, "accounts/turn_sound_toggle.html", {"turn_sound": on, "next": back})
    return redirect(back or "profile")


def member_suggestions(request: HttpRequest) -> HttpResponse:
    """The `<option>`s of a member box's datalist (accounts.fields.MemberInput): members only (the site's default
    login), emails matched for staff alone. The box's value comes under its own name, which `field` gives."""
    field = request.GET.get("field", "")[:60]
    text = request.GET.get(field, "")[:254] if field else ""
    members = suggest_members(text, by_email=request.user.is_staff)
    return render(request, "accounts/member_suggestions.html", {"members": members})
