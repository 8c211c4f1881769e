"""A member's profile page (login is the site's default): any member may look at any active member's."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.models import User
from tables.profiles.selectors import member_profile
from tables.tournaments.members import member_tournaments


def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    member = get_object_or_404(User, username=username, is_active=True)
    return render(request, "tables/profiles/profile.html", {
        "profile": member_profile(member=member, viewer=request.user), "own": member.pk == request.user.pk,
        "tournaments": member_tournaments(member=member),
    })
