"""Cleaning up pictures (issue 21): uploads nobody posted within a day go with the hourly job; an erased
account's pictures go with it; ``audit_timelines --fix`` finds and deletes what nothing can show any more."""

from __future__ import annotations

import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from media import services
from media.models import Attachment
from media.tests import images
from socialsite import redis_client
from timelines import keys, queue, tasks
from timelines import services as timelines
from timelines.services import erasure
from timelines.services.pictures import set_picture
from timelines.worker import Worker

pytestmark = pytest.mark.django_db


def make_user(login: str) -> int:
    return timelines.create_user(login=login, name=login.title())


def files_in(root: Path) -> set[str]:
    return {path.parent.name for path in root.rglob("*") if path.is_file()} if root.exists() else set()


def age(picture: Attachment, hours: int) -> None:
    Attachment.objects.filter(pk=picture.pk).update(created=timezone.now() - timedelta(hours=hours))


def test_the_job_deletes_uploads_nobody_posted_within_a_day(media_root):
    alice = make_user("alice")
    stale = services.upload(owner=alice, data=images.jpeg())
    fresh = services.upload(owner=alice, data=images.jpeg())
    posted = services.upload(owner=alice, data=images.jpeg())
    timelines.post_status(uid=alice, message="kept", media_ids=[posted.pk])
    age(stale, 25)
    age(posted, 25)
    assert tasks.clean_media() == 1
    assert set(Attachment.objects.values_list("pk", flat=True)) == {fresh.pk, posted.pk}
    assert files_in(media_root) == {fresh.token, posted.token}


def test_an_erased_account_leaves_no_picture(media_root):
    alice = make_user("alice")
    set_picture(uid=alice, kind="avatar", data=images.jpeg())
    services.upload(owner=alice, data=images.jpeg())
    posted = services.upload(owner=alice, data=images.png())
    timelines.post_status(uid=alice, message="soon gone", media_ids=[posted.pk])
    erasure.delete_account(uid=alice)  # the first pass; the jobs of the next ones are run here, in order
    phase: str | None = erasure.PHASES[1]
    while phase is not None:
        phase = erasure.erase(uid=alice, phase=phase)
    assert Attachment.objects.count() == 0
    assert files_in(media_root) == set()


def test_audit_fix_deletes_pictures_nothing_can_show(media_root):
    alice = make_user("alice")
    kept = services.upload(owner=alice, data=images.jpeg())
    posted = services.upload(owner=alice, data=images.jpeg())
    status_id = timelines.post_status(uid=alice, message="hash lost", media_ids=[posted.pk])
    old_avatar = set_picture(uid=alice, kind="avatar", data=images.jpeg())
    avatar = set_picture(uid=alice, kind="avatar", data=images.png())
    redis_client.get_redis().delete(keys.status(status_id))  # a deletion interrupted before the files went
    services.upload(owner=alice, kind="avatar", data=images.jpeg())  # stored, never named by the profile
    assert old_avatar not in files_in(media_root)

    out = StringIO()
    call_command("audit_timelines", stdout=out)
    assert "media leftovers" in out.getvalue()
    assert Attachment.objects.count() == 4  # a dry run
    call_command("audit_timelines", "--fix", stdout=StringIO())
    remaining = set(Attachment.objects.values_list("token", flat=True))
    assert remaining == {kept.token, avatar}
    assert files_in(media_root) == remaining


def test_a_workers_maintenance_pass_queues_the_hourly_clean_up_once():
    job_queue = queue.get_queue()
    hour = time.strftime("%Y%m%d%H", time.gmtime())
    for _ in range(2):  # two workers' passes, or two passes of one
        Worker([job_queue], connection=job_queue.connection).clean_registries()
    job = queue.get_job(f"clean-media-{hour}")
    assert job is not None and job.func_name == "timelines.tasks.clean_media"
    assert [j for j in job_queue.get_job_ids() if j.startswith("clean-media-")] == [f"clean-media-{hour}"]
