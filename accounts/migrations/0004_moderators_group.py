"""The "Moderators" group (issue 12): view accounts, reports and the audit log, and take the moderation actions,
but not add, change or delete accounts. The list is frozen here, as a migration must be; ``manage.py
setup_moderators`` (``accounts.permissions``) sets it back later."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "view_report"),
    ("admin", "view_logentry"),
    ("accounts", "suspend_account"),
    ("accounts", "limit_account"),
    ("accounts", "remove_post"),
    ("accounts", "delete_account"),
    ("accounts", "resolve_report"),
]


def create_group(apps, schema_editor):
    # Permissions are made by post_migrate, after every migration: on a fresh database they do not exist yet.
    for label in ("accounts", "admin"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_moderation"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
