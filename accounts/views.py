"""The member's profile page, table-page preferences, language and emails; everything else about accounts is
allauth's."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import webpush
from accounts.forms import NAME_TAKEN_MEANWHILE, EmailNoticesForm, ProfileForm, TurnSoundForm
from accounts.members import suggest_members
from accounts.next_page import same_site_next


def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                member = form.save()
        except IntegrityError:
            # Another member saved a name reading like this one since the form checked: the database's unique
            # name keys decided (accounts.names). Nothing was saved; the member's own object forgets the try.
            request.user.refresh_from_db()
            form.add_error("display_name", NAME_TAKEN_MEANWHILE)
            return render(request, "accounts/profile.html", {"form": form}, status=409)
        # Said in the language the member just chose (or keeps), as the next page will be.
        with translation.override(member.language or translation.get_language()):
            messages.success(request, gettext("Your profile is saved."))
        response = redirect("profile")
        if "language" in form.changed_data:
            _remember_language(response, member.language)
        return response
    return render(request, "accounts/profile.html", {"form": form}, status=400 if form.errors else 200)


def email_notices(request: HttpRequest) -> HttpResponse:
    """The member's choice of emails about correspondence tables, on a page of its own beside the profile (linked
    from it): the profile's form is long enough. A booleans' checkbox left unticked is "off", as HTML sends it."""
    form = EmailNoticesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Your email settings are saved."))
        return redirect("email_notices")
    return render(request, "accounts/email_notices.html", {
        "form": form, "push_key": webpush.public_key(), "devices": request.user.push_subscriptions.count(),
    }, status=400 if form.errors else 200)


@require_POST
def turn_sound(request: HttpRequest) -> HttpResponse:
    """Login is the site's default (LoginRequiredMiddleware); CSRF is Django's middleware's."""
    form = TurnSoundForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(gettext("Sound on my turn is either on or off."))
    on = form.save(request.user)
    back = same_site_next(request, request.POST.get("next"))  # where the toggle was clicked
    if request.htmx:
        return render(request, "accounts/turn_sound_toggle.html", {"turn_sound": on, "next": back})
    return redirect(back or "profile")


def _remember_language(response: HttpResponse, language: str) -> None:
    """The profile's choice in Django's language cookie too, so the site stays in it after logging out; "As my
    browser asks" removes the cookie, or an earlier click on the header's switcher would go on deciding."""
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH,
                               domain=settings.LANGUAGE_COOKIE_DOMAIN, samesite=settings.LANGUAGE_COOKIE_SAMESITE)


@login_not_required
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language switcher: Django's own view (the cookie, the way back to `next` on this site only),
    and for a signed-in member the choice saved on their profile too. The saved language outranks the cookie
    (accounts.middleware), so without saving it a member who had chosen one could never switch here."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        # Django's view would set a cookie for any language Django itself speaks (French...): only the club's.
        request.POST = request.POST.copy()
        request.POST.pop("language", None)
        language = ""
    response = django_set_language(request)
    user = request.user
    if user.is_authenticated and language and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return response


def member_suggestions(request: HttpRequest) -> HttpResponse:
    """The `<option>`s of a member box's datalist (accounts.fields.MemberInput): members only (the site's default
    login), emails matched for staff alone. The box's value comes under its own name, which `field` gives."""
    field = request.GET.get("field", "")[:60]
    text = request.GET.get(field, "")[:254] if field else ""
    members = suggest_members(text, by_email=request.user.is_staff)
    return render(request, "accounts/member_suggestions.html", {"members": members})
