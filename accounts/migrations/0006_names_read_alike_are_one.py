"""Names that read alike are one name (issue 39): each member's username and shown name get their keys
(accounts.names), which the database keeps unique.

Existing members are keyed in the order they joined, usernames first: a username is how a member signs in, so it
is never changed; one that reads like an earlier member's keeps no key (it stays the member's, and a new member
cannot take a name reading like it, as the forms also compare against the other keys). A display name that reads
like another member's username, or an earlier member's shown name, is cleared: that member is shown by their username
until they choose another display name. Going back drops the keys; cleared display names stay cleared.
"""

from django.db import migrations, models

from accounts.names import name_keys


def key_existing_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    members = list(User.objects.order_by("pk").only("pk", "username", "display_name"))
    usernames_by_case: set[str] = set()
    usernames_as_written: set[str] = set()
    for member in members:
        by_case, as_written = name_keys(member.username)
        member.username_key = by_case if by_case not in usernames_by_case else None
        member.username_look = as_written if as_written not in usernames_as_written else None
        usernames_by_case.add(by_case)
        usernames_as_written.add(as_written)
    taken_by_case: set[str] = set()
    taken_as_written: set[str] = set()
    for member in members:
        if member.display_name:
            keys = set(name_keys(member.display_name))
            own = set(name_keys(member.username))
            others_usernames = (usernames_by_case | usernames_as_written) - own
            if keys & (taken_by_case | taken_as_written | others_usernames):
                member.display_name = ""
        by_case, as_written = name_keys(member.display_name or member.username)
        member.shown_key = by_case if by_case not in taken_by_case else None
        member.shown_look = as_written if as_written not in taken_as_written else None
        taken_by_case.add(by_case)
        taken_as_written.add(as_written)
    User.objects.bulk_update(members, ["display_name", "username_key", "username_look", "shown_key", "shown_look"],
                             batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_display_name_verbose_name'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='shown_key',
            field=models.CharField(blank=True, editable=False, help_text="The shown name's skeleton, ignoring case (UTS #39), hashed.", max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='user',
            name='shown_look',
            field=models.CharField(blank=True, editable=False, help_text="The shown name's skeleton as written (UTS #39), hashed.", max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='user',
            name='username_key',
            field=models.CharField(blank=True, editable=False, help_text="The username's skeleton, ignoring case (UTS #39), hashed.", max_length=64, null=True, unique=True),
        ),
        migrations.AddField(
            model_name='user',
            name='username_look',
            field=models.CharField(blank=True, editable=False, help_text="The username's skeleton as written (UTS #39), hashed.", max_length=64, null=True, unique=True),
        ),
        migrations.RunPython(key_existing_names, migrations.RunPython.noop),
    ]
