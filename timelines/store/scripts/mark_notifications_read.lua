-- Marks the notifications in the feed as seen, all of them or those up to an id: the newest id (or ARGV[1], when
-- it is older) becomes the read mark, which never moves back (user's slot).
-- KEYS[1]  notifications:{U}        ZSET
-- KEYS[2]  notifications:read:{U}   STRING
-- KEYS[3]  notifications:unread:{U} STRING  set to how many notifications are above the mark
-- ARGV[1]  the last id read, or 0 (or nothing) for every notification
-- returns  the new read mark (0 for an empty feed)
local up_to = tonumber(ARGV[1] or '0') or 0
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local seen = tonumber(redis.call('GET', KEYS[2]) or '0')
if #newest == 0 then
  redis.call('SET', KEYS[3], 0)
  return 0
end
local mark = tonumber(newest[2])
if up_to > 0 and up_to < mark then
  mark = up_to
end
if mark > seen then
  redis.call('SET', KEYS[2], mark)
  seen = mark
end
redis.call('SET', KEYS[3], redis.call('ZCOUNT', KEYS[1], '(' .. seen, '+inf'))
return seen
