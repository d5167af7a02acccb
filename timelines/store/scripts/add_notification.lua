-- Adds a notification to a user's feed, trims the feed, and returns the unread count (user's slot); with
-- ARGV[4..6], publishes the notification's event carrying that count, after the write, in the same step (a
-- PUBLISH names no key, so this stays a one-slot script on a cluster).
-- KEYS[1]  notifications:{U}        ZSET  notification JSON -> notification id
-- KEYS[2]  notifications:read:{U}   STRING  id of the newest notification seen
-- KEYS[3]  notifications:unread:{U} STRING  the unread count, set here from the feed so it cannot drift
-- ARGV[1]  notification id
-- ARGV[2]  notification JSON
-- ARGV[3]  how many notifications a feed keeps
-- ARGV[4]  optional: the event channel
-- ARGV[5]  optional: the event's JSON up to the unread count
-- ARGV[6]  optional: the event's JSON after the unread count
-- returns  the number of unread notifications after the insert
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
local seen = redis.call('GET', KEYS[2]) or '0'
local unread = redis.call('ZCOUNT', KEYS[1], '(' .. seen, '+inf')
redis.call('SET', KEYS[3], unread)
if ARGV[4] then
    redis.call('PUBLISH', ARGV[4], ARGV[5] .. unread .. ARGV[6])
end
return unread
