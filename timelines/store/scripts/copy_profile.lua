-- Copies an author's newest statuses into a timeline (a follow, a list add), on one server, without sending
-- them to the client: only the few statuses the policy must judge one by one come back.
--
-- Which statuses hold the fields the policy reads is known from profile:held:{author} (keys.profile_held)
-- for the statuses posted after its member 0's score; the others (and every one, when the policy reads other
-- fields) are looked at with HMGET. The first copy of a profile makes that set from what it reads.
-- KEYS[1]  user:{uid} or list:{id}            HASH, the timeline's owner: nothing is written when it does not
--          exist or holds "idle" (an idle-dropped timeline, rebuilt when its owner comes back)
-- KEYS[2]  home:{uid} or list:statuses:{id}   ZSET
-- KEYS[3]  profile:{author}                   ZSET
-- KEYS[4]  profile:held:{author}              ZSET (same slot as KEYS[3])
-- ARGV[1]  size to trim the timeline to (HOME_TIMELINE_SIZE)
-- ARGV[2]  how many of the author's newest statuses to copy
-- ARGV[3]  "1" when the statuses holding none of the fields below may be copied, else "0"
-- ARGV[4]  a status key with "\0" where its id goes (keys.status)
-- ARGV[5]  "1" when KEYS[4] may answer for the fields below (they are among status_hash.HELD_FIELDS)
-- ARGV[6..]  the stored status fields the policy reads (HMGET)
-- KEYS[5]  optional: following:{uid} (same slot as KEYS[1]), for a copy sent with the follow's own writes: then
--          ARGV[6] is the followee's uid and ARGV[7] the follow's score, ARGV[8] and ARGV[9] a channel ("" for
--          none) and a message published when any status was new (the home's reset event, after the write), the
--          fields start at ARGV[10], and nothing is copied unless the followee is in KEYS[5] with that very score
--          (the follow is the one just made)
-- returns  {how many statuses were new, or -1 when the owner does not exist or is idle (nothing written),
--           a flat array: for each status holding any of the fields, its id, its score, then one value per
--           field (nil where it has none)}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'idle') == 1 then
  return {-1, {}}
end
local first_name = 6
if #KEYS >= 5 then
  local since = redis.call('ZSCORE', KEYS[5], ARGV[6])
  if not since or tonumber(since) ~= tonumber(ARGV[7]) then
    return {0, {}}
  end
  first_name = 10
end
local prefix, suffix = string.match(ARGV[4], '^(.*)%z(.*)$')
local names = {}
for index = first_name, #ARGV do
  names[#names + 1] = ARGV[index]
end
local count = #names
local copy_plain = ARGV[3] == '1'
local limit = tonumber(ARGV[2])
local recent = redis.call('ZREVRANGE', KEYS[3], 0, limit - 1, 'WITHSCORES')

-- What profile:held answers for: statuses posted after `complete_from`, those in `indexed`.
local use_index = count > 0 and ARGV[5] == '1'
local complete_from = nil
local indexed = {}
local building = false
if use_index and #recent > 0 then
  local floor = redis.call('ZSCORE', KEYS[4], '0')
  if floor then
    complete_from = floor == '-inf' and -math.huge or tonumber(floor)
    local oldest = recent[#recent]
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], oldest, '+inf')) do
      indexed[id] = true
    end
  else
    building = true
  end
end

local held = {}
local batch = {}
local added = 0
local to_index = {}
for index = 1, #recent, 2 do
  local id, score = recent[index], recent[index + 1]
  local holds = false
  local values = nil
  if count > 0 then
    if complete_from and tonumber(score) > complete_from then
      holds = indexed[id] == true
      if holds then
        values = redis.call('HMGET', prefix .. id .. suffix, unpack(names))
      end
    else
      values = redis.call('HMGET', prefix .. id .. suffix, unpack(names))
      for field = 1, count do
        if values[field] then
          holds = true
          break
        end
      end
    end
  end
  if holds then
    held[#held + 1] = id
    held[#held + 1] = score
    for value = 1, count do
      held[#held + 1] = values[value]
    end
    if building then
      to_index[#to_index + 1] = score
      to_index[#to_index + 1] = id
    end
  elseif copy_plain then
    batch[#batch + 1] = score
    batch[#batch + 1] = id
    -- ZADD in chunks: Lua's unpack() has a limit on how many values it can spread.
    if #batch >= 400 then
      added = added + redis.call('ZADD', KEYS[2], unpack(batch))
      batch = {}
    end
  end
end
if #batch > 0 then
  added = added + redis.call('ZADD', KEYS[2], unpack(batch))
end
if added > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[1]) - 1)
  if first_name == 10 and ARGV[8] ~= '' then
    redis.call('PUBLISH', ARGV[8], ARGV[9])
  end
end
if building then
  -- Complete for every status read: all of the profile when it holds fewer than `limit`, else those posted
  -- after the oldest one read (a status posted at that very time may not have been read).
  local from = '-inf'
  if #recent >= 2 * limit then
    from = recent[#recent]
  end
  for index = 1, #to_index, 400 do
    redis.call('ZADD', KEYS[4], unpack(to_index, index, math.min(index + 399, #to_index)))
  end
  redis.call('ZADD', KEYS[4], from, '0')
end
return {added, held}
