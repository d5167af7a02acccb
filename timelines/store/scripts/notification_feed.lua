-- Library (inlined where a script says "-- include: notification_feed"): adds a notification to a user's feed,
-- trims the feed, sets the unread count from it (so the count cannot drift) and, with a channel, publishes the
-- notification's event carrying that count, after the write.
--   add_notification(feed, read, unread_key, id, payload, keep, channel, before, after)
--   feed: notifications:{U} ZSET (notification JSON -> id); read: notifications:read:{U} STRING, the id of the
--   newest notification seen; unread_key: notifications:unread:{U} STRING, the unread count
--   id, payload: the notification's id and JSON; keep: how many notifications a feed keeps
--   channel: the event channel, or false for no event; before, after: the event's JSON around the unread count
--   returns the number of unread notifications after the insert
local function add_notification(feed, read, unread_key, id, payload, keep, channel, before, after)
  redis.call('ZADD', feed, id, payload)
  redis.call('ZREMRANGEBYRANK', feed, 0, -tonumber(keep) - 1)
  local seen = redis.call('GET', read) or '0'
  local unread = redis.call('ZCOUNT', feed, '(' .. seen, '+inf')
  redis.call('SET', unread_key, unread)
  if channel then
    redis.call('PUBLISH', channel, before .. unread .. after)
  end
  return unread
end
