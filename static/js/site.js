/* socialsite: progressive enhancements on top of server-rendered pages. Everything here is optional: without
 * JavaScript every form still posts and every link still navigates.
 *  - the post box: a live character counter; Post is disabled while empty or too long; Ctrl/Cmd+Enter posts;
 *  - relative times ("3 min ago") kept fresh, with the same rules as timeline_format.relative_time;
 *  - the live home and list timelines: server-sent events from /live/home and /live/list (streaming/live.py)
 *    add, swap and remove posts as the delivery writes them;
 *  - htmx glue: no duplicate posts, focus after "Load more" and delete, announcements, error notices.
 */
(function () {
  "use strict";

  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var NEAR_LIMIT = 20;

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  /* --- announcements and notices ---------------------------------------------------------------------- */

  function announce(message) {
    var region = $("#announcer");
    if (!region) return;
    // Clearing first makes screen readers repeat a message identical to the previous one.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = message; }, 50);
  }

  var noticeTimer = null;
  function notice(message) {
    var box = $("#notice");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    window.clearTimeout(noticeTimer);
    noticeTimer = window.setTimeout(function () { box.hidden = true; }, 6000);
  }

  /* --- the post box ----------------------------------------------------------------------------------- */

  // Characters as the server counts them: code points of the NFC-normalised, trimmed text.
  function postLength(text) {
    return Array.from(text.normalize("NFC").trim()).length;
  }

  function initCompose(root) {
    var forms = $all("form[data-max-length]", root);
    if (root.matches && root.matches("form[data-max-length]")) forms.push(root);
    forms.forEach(function (form) {
      if (form.dataset.enhanced) return;
      form.dataset.enhanced = "1";
      var max = parseInt(form.dataset.maxLength, 10);
      var box = $("textarea", form);
      var button = $("button[type=submit]", form);
      var counter = $(".counter", form);
      var alertRegion = $("[data-counter-alert]", form);
      var lastState = "";
      function update() {
        var length = postLength(box.value);
        var left = max - length;
        var state = left < 0 ? "over" : left <= NEAR_LIMIT ? "near" : "ok";
        counter.textContent = left < 0 ? -left + " characters over the limit" : left + " characters left";
        counter.classList.toggle("near", state === "near");
        counter.classList.toggle("over", state === "over");
        // A post of images alone needs no text (media.js marks the form while it holds images).
        button.disabled = (length === 0 && !form.dataset.hasMedia) || left < 0;
        // Speak only when the state changes, not on every keystroke.
        if (alertRegion && state !== lastState && state !== "ok") {
          alertRegion.textContent = state === "over" ? "Too long to post." : left + " characters left.";
        }
        lastState = state;
      }
      box.addEventListener("input", update);
      form.addEventListener("media-change", update);
      box.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !button.disabled) {
          event.preventDefault();
          if (form.requestSubmit) form.requestSubmit(button); else button.click();
        }
      });
      update();
    });
  }

  /* --- relative times --------------------------------------------------------------------------------- */

  function relative(date, now) {
    var age = (now - date) / 1000;
    if (age < 45) return "just now";
    if (age < 3600) return Math.max(1, Math.floor(age / 60)) + " min ago";
    if (age < 86400) return Math.floor(age / 3600) + " h ago";
    if (age < 7 * 86400) return Math.floor(age / 86400) + " d ago";
    var text = date.getDate() + " " + MONTHS[date.getMonth()];
    return date.getFullYear() === now.getFullYear() ? text : text + " " + date.getFullYear();
  }

  function refreshTimes(root) {
    var now = new Date();
    $all("time[data-relative]", root).forEach(function (element) {
      var date = new Date(element.getAttribute("datetime"));
      if (!isNaN(date)) element.textContent = relative(date, now);
    });
  }

  /* --- timelines -------------------------------------------------------------------------------------- */

  function statusId(element) { return parseInt(element.dataset.id, 10); }

  function newestId(timeline) {
    var first = $("article.status", timeline);
    return first ? statusId(first) : 0;
  }

  function tidyEmptyState() {
    var timeline = $("#timeline");
    var empty = $("#timeline-empty");
    if (timeline && empty && $("article.status", timeline)) empty.remove();
  }

  function fadeLater(article) {
    window.setTimeout(function () { article.classList.remove("fresh"); }, 4000);
  }

  // Put a post where its id belongs (newest first); ids already shown are ignored.
  function insertStatus(timeline, html) {
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var article = holder.firstElementChild;
    if (!article || document.getElementById(article.id)) return null;
    var id = statusId(article);
    // A post shows once on a page, where it came newest (as the page read shows it): a repost arriving for a
    // post already shown takes its place, an older entry of a post already shown is not added.
    var same = $all('article.status[data-status="' + article.dataset.status + '"]', timeline);
    if (same.some(function (other) { return statusId(other) > id; })) return null;
    same.forEach(function (other) { other.remove(); });
    var before = $all("article.status", timeline).filter(function (other) { return statusId(other) < id; })[0];
    if (before) {
      timeline.insertBefore(article, before);
    } else if ($("#pager a")) {
      return null; // older than everything loaded: it belongs to a page not loaded yet
    } else {
      timeline.appendChild(article);
    }
    if (window.htmx) window.htmx.process(article);
    tidyEmptyState();
    fadeLater(article);
    return article;
  }

  /* An edited post (the live "update" event): its text and its "Edited" line swapped into every place the page
     shows it (itself, or through reposts), keeping each entry's own buttons. A post whose edit box is open is
     left to its author. */
  function swapEdited(statusId, html) {
    return swapText($all('article.status[data-status="' + statusId + '"]'), html);
  }

  // The text and "Edited" line of ``html``'s post swapped into ``articles``; true when any was.
  function swapText(articles, html) {
    var holder = document.createElement("div");
    holder.innerHTML = html.trim();
    var fresh = holder.firstElementChild;
    if (!fresh) return false;
    var message = $(".message", fresh);
    var meta = $("header .meta", fresh);
    var swapped = false;
    articles.forEach(function (article) {
      var oldMessage = $("p.message", article);
      var oldMeta = $("header .meta", article);
      if (!oldMessage || !message) return;
      if (oldMessage.innerHTML === message.innerHTML) return;
      oldMessage.innerHTML = message.innerHTML;
      if (oldMeta && meta) oldMeta.innerHTML = meta.innerHTML;
      refreshTimes(article);
      swapped = true;
    });
    return swapped;
  }

  /* "N new posts" for a reader scrolled away from the top; the posts are already in place above. */
  var unseen = 0;
  function showNewPostsButton(timeline) {
    if (timeline.getBoundingClientRect().top >= 0) return;
    unseen += 1;
    var button = $("#new-posts");
    if (!button) {
      button = document.createElement("button");
      button.id = "new-posts";
      button.type = "button";
      button.className = "primary new-posts";
      button.addEventListener("click", function () {
        unseen = 0;
        button.remove();
        timeline.scrollIntoView({ behavior: "smooth" });
        var first = $("article.status", timeline);
        if (first) first.focus({ preventScroll: true });
      });
      document.body.appendChild(button);
    }
    button.textContent = unseen === 1 ? "1 new post" : unseen + " new posts";
  }

  /* Notices every live page gets: the header's unread count, and accounts the moderators suspended. */
  function setUnread(count) {
    var link = $("#notifications-link");
    if (!link) return;
    var badge = $("#unread-count", link);
    if (count > 0) {
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "badge";
        badge.id = "unread-count";
        link.appendChild(document.createTextNode(" "));
        link.appendChild(badge);
      }
      badge.textContent = String(count);
    } else if (badge) {
      badge.remove();
      link.textContent = "Notifications";
    }
  }

  // The header's "Messages N": the number of conversations holding an unread message.
  function setUnreadConversations(count) {
    var link = $("#messages-link");
    if (!link) return;
    var badge = $("#messages-count", link);
    if (count > 0) {
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "badge";
        badge.id = "messages-count";
        link.appendChild(document.createTextNode(" "));
        link.appendChild(badge);
      }
      badge.textContent = String(count);
    } else if (badge) {
      badge.remove();
      link.textContent = "Messages";
    }
  }

  // The list of conversations (/messages, its first page) reads itself again, as a reload would show it.
  function refreshConversations() {
    var list = $("#conversation-list[data-refresh-url]");
    if (list && window.htmx) {
      window.htmx.ajax("GET", list.dataset.refreshUrl,
        { target: "#conversation-list", select: "#conversation-list", swap: "outerHTML" });
    }
  }

  function listenForNotices(source) {
    source.addEventListener("notifications", function (event) {
      setUnread(JSON.parse(event.data).unread);
    });
    source.addEventListener("messages", function (event) {
      setUnreadConversations(JSON.parse(event.data).unread);
      refreshConversations();
    });
    source.addEventListener("edited", function (event) {
      // A direct message was edited: swapped in where this page shows it; the list shows its new text.
      var data = JSON.parse(event.data);
      if (data.html && swapEdited(data.id, data.html)) announce("A message was edited.");
      refreshConversations();
    });
    source.addEventListener("suspend", function (event) {
      var uid = String(JSON.parse(event.data).uid);
      $all("article.status").forEach(function (article) {
        if (article.dataset.author === uid || article.dataset.reposter === uid) article.remove();
      });
    });
  }

  /* Reconnecting: a stream that ended (cut off, the network or the server gone) is opened again by this page, with
     ?resync=1: it may have missed anything, so the server sends what a reload would show (the timeline, the
     conversation, the counts) before carrying on. The browser's own reconnection would not say so. */
  var RETRY_MILLISECONDS = 3000;
  var REFUSED_RETRY_MILLISECONDS = 15000;
  function keepOpen(open) {
    var retryTimer = null;
    function connect(resync) {
      var source = open(resync);
      source.addEventListener("reload", function () {
        source.close();
        if (!retryTimer) retryTimer = window.setTimeout(function () { retryTimer = null; connect(true); }, 1000);
      });
      source.addEventListener("error", function () {
        // CLOSED: refused (403, 429, 503), try again later; CONNECTING: the browser would retry without resync.
        var wait = source.readyState === EventSource.CLOSED ? REFUSED_RETRY_MILLISECONDS : RETRY_MILLISECONDS;
        source.close();
        if (!retryTimer) retryTimer = window.setTimeout(function () { retryTimer = null; connect(true); }, wait);
      });
      return source;
    }
    return connect(false);
  }

  function withResync(url, resync) {
    return resync ? url + (url.indexOf("?") < 0 ? "?" : "&") + "resync=1" : url;
  }

  // Pages without the live home still follow the viewer's notices.
  function startNotices(url) {
    if (!url || !window.EventSource) return;
    keepOpen(function (resync) {
      var source = new EventSource(withResync(url, resync));
      listenForNotices(source);
      return source;
    });
  }

  /* The page's first entries replaced by the ones a reload shows ("timeline" and "thread" events): entries it no
     longer holds leave (older ones loaded by "older" stay unless the snapshot is complete), the missing ones go
     where they belong. */
  function replaceFirstPage(timeline, data) {
    var keep = {};
    data.entries.forEach(function (entry) { keep[entry.id] = true; });
    var oldest = data.entries.length ? data.entries[data.entries.length - 1].id : 0;
    $all("article.status", timeline).forEach(function (article) {
      var id = statusId(article);
      if (!keep[id] && (data.complete || id >= oldest)) article.remove();
    });
    data.entries.slice().reverse().forEach(function (entry) {
      // An entry the page shows keeps its place and buttons, with its text as it is now (an edit it missed).
      var shown = document.getElementById("status-" + entry.id);
      if (shown) swapText([shown], entry.html);
      else insertStatus(timeline, entry.html);
    });
  }

  /* An open conversation (/messages/<id>): its new messages go on top, and it stays read, as a reload would
     leave it. */
  function startMessages(timeline) {
    var url = timeline.dataset.messagesUrl;
    if (!url || !window.EventSource) return;
    keepOpen(function (resync) {
      var source = new EventSource(withResync(url, resync));
      source.addEventListener("message", function (event) {
        var data = JSON.parse(event.data);
        var article = insertStatus(timeline, data.html);
        if (article && !data.mine) {
          var author = $(".name", article);
          announce("New message from " + (author ? author.textContent : "someone") + ".");
          if (window.htmx) {
            window.htmx.ajax("POST", "/messages/" + timeline.dataset.conversation + "/read",
              { target: "#messages-link", swap: "outerHTML" });
          }
        }
      });
      source.addEventListener("unmessage", function (event) {
        var article = document.getElementById("status-" + JSON.parse(event.data).id);
        if (article) article.remove();
      });
      source.addEventListener("thread", function (event) {
        // After a reconnect: the conversation's messages as a reload shows them.
        replaceFirstPage(timeline, JSON.parse(event.data));
      });
      listenForNotices(source);
      return source;
    });
  }

  function startLive(timeline) {
    var url = timeline.dataset.liveUrl;
    if (!url || !window.EventSource) return;
    keepOpen(function (resync) {
      var sinceUrl = url.replace(/since_id=\d*/, "since_id=" + newestId(timeline));
      var source = new EventSource(withResync(sinceUrl, resync));
      source.addEventListener("post", function (event) {
        var data = JSON.parse(event.data);
        var article = insertStatus(timeline, data.html);
        if (article) {
          var author = $(".name", article);
          announce("New post from " + (author ? author.textContent : "someone") + ".");
          showNewPostsButton(timeline);
        }
      });
      source.addEventListener("delete", function (event) {
        // The entry itself, and any repost showing a deleted post.
        var id = String(JSON.parse(event.data).id);
        var article = document.getElementById("status-" + id);
        if (article) article.remove();
        $all("article.status", timeline).forEach(function (other) {
          if (other.dataset.status === id) other.remove();
        });
      });
      source.addEventListener("timeline", function (event) {
        // Many entries changed at once (a follow, an unfollow, a block, a list's members), or the page reconnected:
        // the timeline's first page as a reload shows it.
        replaceFirstPage(timeline, JSON.parse(event.data));
      });
      source.addEventListener("update", function (event) {
        var data = JSON.parse(event.data);
        if (swapEdited(data.id, data.html)) announce("A post was edited.");
      });
      listenForNotices(source);
      timeline.liveSource = source;
      return source;
    });
  }

  /* --- htmx glue -------------------------------------------------------------------------------------- */

  function initHtmx() {
    var body = document.body;
    var pendingFocusIndex = null;
    var focusAfterDelete = null;

    // A post may already be on the page (the live stream was quicker than the answer to "Post").
    body.addEventListener("htmx:oobBeforeSwap", function (event) {
      var fragment = event.detail.fragment;
      if (!fragment || !fragment.querySelectorAll) return;
      $all("article.status", fragment).forEach(function (article) {
        if (document.getElementById(article.id)) article.remove();
      });
    });

    body.addEventListener("htmx:beforeRequest", function (event) {
      var source = event.detail.elt;
      if (source.closest && source.closest("#pager")) {
        pendingFocusIndex = $all("#timeline article.status").length;
      }
    });

    body.addEventListener("htmx:beforeSwap", function (event) {
      var xhr = event.detail.xhr;
      // The session ended: the answer is the log-in page, which belongs in the window, not inside a button.
      if (xhr && xhr.responseURL && xhr.responseURL.indexOf("/accounts/login/") !== -1) {
        event.detail.shouldSwap = false;
        window.location.href = xhr.responseURL;
        return;
      }
      var target = event.detail.target;
      if (target && target.matches && target.matches("article.status") && event.detail.requestConfig &&
          event.detail.requestConfig.verb === "post") {
        var next = target.nextElementSibling || target.previousElementSibling;
        focusAfterDelete = next && next.matches("article.status") ? next : $("#main");
      }
    });

    body.addEventListener("htmx:afterSettle", function () {
      tidyEmptyState();
      if (pendingFocusIndex !== null) {
        var first = $all("#timeline article.status")[pendingFocusIndex];
        pendingFocusIndex = null;
        if (first) first.focus();
      }
      if (focusAfterDelete) {
        focusAfterDelete.focus();
        focusAfterDelete = null;
      }
      $all("article.status.fresh").forEach(fadeLater);
    });

    body.addEventListener("announce", function (event) {
      if (event.detail && event.detail.message) announce(event.detail.message);
    });
    body.addEventListener("htmx:responseError", function (event) {
      var xhr = event.detail.xhr;
      var status = xhr ? xhr.status : 0;
      // A rate limit answers htmx with its message as text ("Too many attempts, try again in 5 minutes.").
      if (status === 429) {
        notice(xhr.responseText || "Too many attempts. Please try again later.");
        return;
      }
      notice(status === 503 ? "socialsite is temporarily unavailable. Please try again in a few seconds."
        : "That did not work (error " + status + "). Please reload the page and try again.");
    });
    body.addEventListener("htmx:sendError", function () {
      notice("Could not reach socialsite. Check your connection and try again.");
    });
  }

  function init() {
    if (window.htmx) {
      initHtmx();
      window.htmx.onLoad(function (root) { initCompose(root); });
    }
    initCompose(document);
    refreshTimes(document);
    window.setInterval(function () { refreshTimes(document); }, 30000);
    var timeline = $("#timeline[data-live-url]");
    var conversation = $("#timeline[data-messages-url]");
    if (timeline) startLive(timeline);
    else if (conversation) startMessages(conversation);
    else startNotices(document.body.dataset.liveMe);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
