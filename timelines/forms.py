from __future__ import annotations

from django import forms

from timelines import limits


class PostForm(forms.Form):
    message = forms.CharField(
        label="What's happening?",
        max_length=limits.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 3, "maxlength": limits.MAX_MESSAGE_LENGTH, "placeholder": "What's happening?"}
        ),
    )


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
