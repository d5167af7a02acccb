from __future__ import annotations

from django import forms

from timelines import exceptions, limits, validation, visibility


def _visibility_field() -> forms.ChoiceField:
    # Optional: a client that sends none gets the account's default (or the parent's, for a reply). The
    # service decides which levels this author may pick and says why not (a form error on this field).
    return forms.ChoiceField(label="Visibility", choices=list(visibility.LABELS.items()), required=False)


# A picture's focal point as Mastodon writes it ("x,y", each from -1 to 1, y up), in words: a menu works without
# JavaScript and says what it does.
FOCAL_POINTS = [
    ("0,0", "The centre"),
    ("0,1", "The top"),
    ("0,-1", "The bottom"),
    ("-1,0", "The left side"),
    ("1,0", "The right side"),
    ("-1,1", "The top left corner"),
    ("1,1", "The top right corner"),
    ("-1,-1", "The bottom left corner"),
    ("1,-1", "The bottom right corner"),
]


class PostForm(forms.Form):
    message = forms.CharField(
        label="What's happening?",
        required=False,  # a post of images alone has none; the service says when one is needed
        max_length=limits.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 3, "maxlength": limits.MAX_MESSAGE_LENGTH, "placeholder": "What's happening?"}
        ),
    )
    visibility = _visibility_field()
    sensitive = forms.BooleanField(label="Sensitive", required=False)


class ReplyForm(forms.Form):
    message = forms.CharField(
        label="Your reply",
        required=False,  # a reply of images alone has none; the service says when one is needed
        max_length=limits.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": limits.MAX_MESSAGE_LENGTH}),
    )
    visibility = _visibility_field()
    sensitive = forms.BooleanField(label="Sensitive", required=False)


class ListNameForm(forms.Form):
    name = forms.CharField(
        label="List name",
        max_length=limits.MAX_LIST_NAME_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        widget=forms.TextInput(attrs={"maxlength": limits.MAX_LIST_NAME_LENGTH}),
    )


class MemberForm(forms.Form):
    login = forms.CharField(label="Username", max_length=limits.MAX_LOGIN_LENGTH * 4)


class SearchForm(forms.Form):
    # No max_length here: the query's rules (and their messages) are validation.clean_query's.
    q = forms.CharField(
        label="Search",
        required=False,
        strip=False,
        widget=forms.SearchInput(attrs={"maxlength": limits.MAX_QUERY_LENGTH, "placeholder": "Words, @people, #tags"}),
    )


class ProfileForm(forms.Form):
    name = forms.CharField(
        label="Display name",
        max_length=limits.MAX_NAME_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        widget=forms.TextInput(attrs={"maxlength": limits.MAX_NAME_LENGTH, "autocomplete": "name"}),
    )
    bio = forms.CharField(
        label="Bio",
        required=False,
        strip=False,
        max_length=limits.MAX_BIO_LENGTH * 4,
        help_text=f"Up to {limits.MAX_BIO_LENGTH} characters. @mentions, #tags and links become links.",
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": limits.MAX_BIO_LENGTH}),
    )
    private = forms.BooleanField(
        label="Private account",
        required=False,
        help_text="Only people you approve see your new posts; following you becomes a request. Your earlier "
        "posts keep the visibility they had.",
    )
    avatar = forms.FileField(
        label="Avatar",
        required=False,
        help_text="A square picture (JPEG, PNG, GIF or WebP), cropped around the part you keep below. Shown beside "
        "your posts.",
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/gif,image/webp"}),
    )
    avatar_focus = forms.ChoiceField(
        label="Avatar: part to keep",
        choices=FOCAL_POINTS,
        required=False,
        help_text="Where the square is cut from a picture that is not square (its focal point).",
    )
    remove_avatar = forms.BooleanField(label="Remove avatar", required=False)
    header = forms.FileField(
        label="Header",
        required=False,
        help_text="A wide picture across the top of your profile (3:1).",
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/gif,image/webp"}),
    )
    header_focus = forms.ChoiceField(
        label="Header: part to keep",
        choices=FOCAL_POINTS,
        required=False,
        help_text="Where the 3:1 band is cut from the picture (its focal point).",
    )
    remove_header = forms.BooleanField(label="Remove header", required=False)
    default_visibility = forms.ChoiceField(
        label="Default post visibility",
        choices=list(visibility.LABELS.items()),
        required=False,  # left out: unchanged
        help_text="What the post box starts on. A private account posts for its followers or the people it "
        "mentions only.",
    )

    def clean_name(self) -> str:
        try:
            return validation.clean_name(self.cleaned_data["name"])
        except exceptions.InvalidName as error:
            raise forms.ValidationError(error.message) from None

    def clean_bio(self) -> str:
        try:
            return validation.clean_bio(self.cleaned_data["bio"])
        except exceptions.InvalidBio as error:
            raise forms.ValidationError(error.message) from None

    def clean(self) -> dict:
        cleaned = super().clean() or {}
        chosen = cleaned.get("default_visibility")
        if chosen and "default_visibility" in self.changed_data:
            # Judged with the privacy this same form asks for, which is saved first. A default left as it was
            # is kept, unused while the account is private (it then starts on "Followers only").
            try:
                visibility.check(chosen, account_private=bool(cleaned.get("private")))
            except exceptions.InvalidVisibility as error:
                self.add_error("default_visibility", error.message)
        return cleaned


class MessageForm(forms.Form):
    """The box of a conversation and of a profile's Message page."""

    message = forms.CharField(
        label="Your message",
        max_length=limits.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": limits.MAX_MESSAGE_LENGTH}),
    )


class EditForm(forms.Form):
    """A post's new text (issue 19's edits): the visibility is not the editor's to change."""

    message = forms.CharField(
        label="Edit your post",
        max_length=limits.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        required=False,  # a post of images alone may have no text: the service says when one is needed
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": limits.MAX_MESSAGE_LENGTH}),
    )
