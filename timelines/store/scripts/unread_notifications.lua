-- The number of notifications newer than the newest one the user has seen (user's slot).
-- KEYS[1]  notifications:{U}        ZSET
-- KEYS[2]  notifications:read:{U}   STRING
-- returns  the unread count
local seen = redis.call('GET', KEYS[2]) or '0'
return redis.call('ZCOUNT', KEYS[1], '(' .. seen, '+inf')
