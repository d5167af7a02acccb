-- Adds a status to a person's bookmarks with a score that is the time in microseconds, raised above the newest
-- bookmark's when the clock gave the same or an earlier time: scores are cursors, so no two may be equal.
-- KEYS[1]  bookmarks:{uid}   ZSET
-- ARGV[1]  status id
-- ARGV[2]  now, integer microseconds
-- ARGV[3]  largest size allowed
-- returns  1 if added, 0 if already there (it keeps its first time), -1 if the set is full
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return -1
end
local score = tonumber(ARGV[2])
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) >= score then
  score = tonumber(newest[2]) + 1
end
-- Formatted by hand: Lua would write a 16-digit number in exponent form and lose its last digits.
redis.call('ZADD', KEYS[1], string.format('%.0f', score), ARGV[1])
return 1
