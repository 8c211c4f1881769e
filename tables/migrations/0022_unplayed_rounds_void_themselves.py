"""A round may be voided by the club itself, not only by an admin: one that ends before any member has moved in its
match (bots alone played it) counts for nothing, with `voided_by` empty and its reason kept. The check constraint
no longer asks for an admin; a voided round is still over, unpaid and explained."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0021_puskiyon_rounds_record_their_steps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='round',
            name='voided_rounds_are_over_unpaid_and_explained',
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('voided_at__isnull', True), models.Q(('over', True), ('result__isnull', True), models.Q(('void_reason', ''), _negated=True)), _connector='OR'), name='voided_rounds_are_over_unpaid_and_explained'),
        ),
    ]
