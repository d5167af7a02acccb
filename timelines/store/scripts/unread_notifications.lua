-- Recounts a user's unread notifications (those newer than the newest one seen) and stores the count, after
-- notifications were removed (user's slot).
-- KEYS[1]  notifications:{U}         ZSET
-- KEYS[2]  notifications:read:{U}    STRING
-- KEYS[3]  notifications:unread:{U}  STRING
-- returns  the unread count
local seen = redis.call('GET', KEYS[2]) or '0'
local unread = redis.call('ZCOUNT', KEYS[1], '(' .. seen, '+inf')
redis.call('SET', KEYS[3], unread)
return unread
