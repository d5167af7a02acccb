"""Domain errors of the social graph. Views map each to a form error or a 4xx; messages are constants
so tests and views can refer to them."""

from __future__ import annotations

from timelines import limits

LOGIN_TAKEN = "That username is taken."
INVALID_LOGIN = f"Usernames are 1 to {limits.MAX_LOGIN_LENGTH} characters: letters, digits and underscores."
INVALID_NAME = f"Display names are 1 to {limits.MAX_NAME_LENGTH} characters."
UNKNOWN_USER = "No such user."
STATUS_NOT_FOUND = "No such post."
EMPTY_MESSAGE = "Write something before posting."
MESSAGE_TOO_LONG = f"Posts are at most {limits.MAX_MESSAGE_LENGTH} characters."
INVALID_STATUS_DATA = "That post carries data that cannot be stored."
CANNOT_FOLLOW_SELF = "You cannot follow yourself."
NOT_OWNER = "Only the author can delete a post."
NOT_EDIT_OWNER = "Only the author can edit a post."
TOO_MANY_VERSIONS = f"A post keeps at most {limits.MAX_STATUS_VERSIONS} versions: this one cannot be edited again."
UNKNOWN_LIST = "No such list."
NOT_LIST_OWNER = "Only the owner of a list can change it."
INVALID_LIST_NAME = f"List names are 1 to {limits.MAX_LIST_NAME_LENGTH} characters."
TOO_MANY_LISTS = f"You can have at most {limits.MAX_LISTS_PER_USER} lists; delete one first."
CANNOT_REPOST = "This post cannot be reposted."
CANNOT_REPOST_VISIBILITY = "Only public and unlisted posts can be reposted."
CANNOT_TARGET_SELF = "You cannot do that to yourself."
CANNOT_FOLLOW = "You cannot follow this account."
LIST_FULL = f"A list can hold at most {limits.MAX_LIST_MEMBERS} people."
BIO_TOO_LONG = f"Bios are at most {limits.MAX_BIO_LENGTH} characters."
EMPTY_QUERY = "Type a word, a name or a #tag to search for."
QUERY_TOO_LONG = f"Searches are at most {limits.MAX_QUERY_LENGTH} characters."
INVALID_VISIBILITY = "Choose who can see the post: Public, Unlisted, Followers only or Mentioned people only."
PRIVATE_ACCOUNT_VISIBILITY = "A private account posts for its followers or the people it mentions only."
NO_RECIPIENT = "Mention at least one person: a post for mentioned people only needs someone to reach."
UNKNOWN_RECIPIENT = "@{acct} is being looked up on their server: send it again in a moment."
REPLY_TOO_WIDE = "This reply answers a post for “{level}”: it cannot be “{chosen}”."
CANNOT_MESSAGE = "You cannot message @{login}."
TOO_MANY_RECIPIENTS = f"A conversation has at most {limits.MAX_MESSAGE_PARTICIPANTS} people, you included."
CONVERSATION_NOT_FOUND = "No such conversation."
INVALID_MEDIA = "These images cannot be attached: each must be your own upload, not yet posted."
TOO_MANY_BOOKMARKS = f"You can keep at most {limits.MAX_BOOKMARKS:,} bookmarks; remove one first."
INVALID_TAG = "That is not a tag: letters, digits and underscores, not only digits."
TOO_MANY_FOLLOWED_TAGS = f"You can follow at most {limits.MAX_FOLLOWED_TAGS:,} tags; unfollow one first."
NO_SEARCH_WORDS = "Search for at least one word; very common words such as “the” are not searched."


class TimelineError(Exception):
    """Base of every error the timelines services and selectors raise on purpose."""

    default_message = "The request could not be completed."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class LoginTaken(TimelineError):
    default_message = LOGIN_TAKEN


class InvalidLogin(TimelineError):
    default_message = INVALID_LOGIN


class InvalidName(TimelineError):
    default_message = INVALID_NAME


class UnknownUser(TimelineError):
    default_message = UNKNOWN_USER


class StatusNotFound(TimelineError):
    default_message = STATUS_NOT_FOUND


class InvalidMedia(TimelineError):
    """Images a post may not carry: someone else's upload, one already posted or gone, more than four, or an
    upload or description refused (its message says which)."""

    default_message = INVALID_MEDIA


class InvalidMessage(TimelineError):
    default_message = EMPTY_MESSAGE


class InvalidStatusData(TimelineError):
    default_message = INVALID_STATUS_DATA


class CannotFollowSelf(TimelineError):
    default_message = CANNOT_FOLLOW_SELF


class NotOwner(TimelineError):
    default_message = NOT_OWNER


class UnknownList(TimelineError):
    default_message = UNKNOWN_LIST


class NotListOwner(TimelineError):
    default_message = NOT_LIST_OWNER


class InvalidListName(TimelineError):
    default_message = INVALID_LIST_NAME


class TooManyLists(TimelineError):
    default_message = TOO_MANY_LISTS


class ListFull(TimelineError):
    default_message = LIST_FULL


class CannotRepost(TimelineError):
    default_message = CANNOT_REPOST


class InvalidVisibility(TimelineError):
    """An unknown visibility, or one the author may not pick (a private account's public post, a reply wider
    than the post it answers)."""

    default_message = INVALID_VISIBILITY


class CannotTargetSelf(TimelineError):
    default_message = CANNOT_TARGET_SELF


class CannotFollow(TimelineError):
    """A block stands between the two people (the blocked person is not told more)."""

    default_message = CANNOT_FOLLOW


class InvalidBio(TimelineError):
    default_message = BIO_TOO_LONG


class InvalidQuery(TimelineError):
    default_message = NO_SEARCH_WORDS


class EmptyQuery(InvalidQuery):
    """Nothing to search for: a page shows its search form with a hint, not an error."""

    default_message = EMPTY_QUERY


class CannotMessage(TimelineError):
    """A direct message to someone a block stands between (either way), or to a private account that does not
    follow its author: nothing is written."""

    default_message = CANNOT_MESSAGE.format(login="them")

    def __init__(self, login: str | None = None) -> None:
        super().__init__(CANNOT_MESSAGE.format(login=login) if login else None)


class TooManyRecipients(TimelineError):
    default_message = TOO_MANY_RECIPIENTS


class ConversationNotFound(TimelineError):
    """No such conversation, or one the asker is not part of (the same answer, so ids tell nothing)."""

    default_message = CONVERSATION_NOT_FOUND


class TooManyVersions(TimelineError):
    """An edit would give a status more than ``limits.MAX_STATUS_VERSIONS`` versions."""

    default_message = TOO_MANY_VERSIONS


class TooManyBookmarks(TimelineError):
    default_message = TOO_MANY_BOOKMARKS


class InvalidTag(TimelineError):
    default_message = INVALID_TAG


class TooManyFollowedTags(TimelineError):
    default_message = TOO_MANY_FOLLOWED_TAGS
