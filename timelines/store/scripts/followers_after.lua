-- Reads the next batch of a follower ZSET after a cursor, in ZSET order (score, then member). Used by
-- fan-out jobs, which resume from the last follower they reached: unlike a rank, the cursor does not shift
-- when earlier followers leave, and unlike a bare score (the book's listing 8.7) it cannot loop or skip on
-- followers that share a score.
-- KEYS[1]  followers:{uid}   ZSET
-- ARGV[1]  cursor score ("-inf" to start from the beginning)
-- ARGV[2]  cursor member ("" to start from the beginning)
-- ARGV[3]  batch size
-- ARGV[4]  optional: "ids" to return the members and only the last one's score
-- ARGV[5]  optional: a size; a ZSET larger than it is answered with its size alone (an integer), not members
--          (a new post of an account past the hybrid fan-out threshold, services.pulled, reaches no home)
-- returns  {member, score, member, score, ...} after the cursor, at most batch size pairs; with "ids",
--          {last score, member, member, ...} ({} when none is left); or the size, with ARGV[5]
local key = KEYS[1]
if ARGV[5] and ARGV[5] ~= '' then
  local size = redis.call('ZCARD', key)
  if size > tonumber(ARGV[5]) then
    return size
  end
end
local count = tonumber(ARGV[3])
local start = 0
if ARGV[2] ~= '' then
  local score = tonumber(ARGV[1])
  local rank = redis.call('ZRANK', key, ARGV[2])
  local current = redis.call('ZSCORE', key, ARGV[2])
  if rank and current and tonumber(current) == score then
    start = rank + 1
  else
    -- The cursor's follower has left (or re-followed later): count what sorts before (score, member).
    start = redis.call('ZCOUNT', key, '-inf', '(' .. ARGV[1])
    local ties = redis.call('ZRANGEBYSCORE', key, ARGV[1], ARGV[1])
    for _, member in ipairs(ties) do
      if member <= ARGV[2] then
        start = start + 1
      end
    end
  end
end
if ARGV[4] == 'ids' then
  local members = redis.call('ZRANGE', key, start, start + count - 1)
  if #members == 0 then
    return members
  end
  -- A fan-out needs only the ids, and the last score for its cursor: half the reply to send and parse.
  table.insert(members, 1, redis.call('ZSCORE', key, members[#members]))
  return members
end
return redis.call('ZRANGE', key, start, start + count - 1, 'WITHSCORES')
