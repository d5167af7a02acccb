-- Library (inlined where a script says "-- include: profile_copy"): copies an author's newest statuses into a
-- timeline on one server, without sending them to the client: only the few statuses the policy must judge one by
-- one come back (copy_profile.lua says which, and how profile:held answers for them).
--   copy_profile(timeline, profile, held_key, size, limit, copy_plain, status_key, use_held, names, channel,
--                message)
--   timeline: home:{uid} or list:statuses:{id} ZSET; profile: profile:{author} ZSET; held_key:
--   profile:held:{author} ZSET; size: what to trim the timeline to; limit: how many of the newest statuses to
--   copy; copy_plain: whether the statuses holding none of `names` may be copied; status_key: a status key with
--   "\0" where its id goes; use_held: whether held_key may answer for `names`; names: the status fields the
--   policy reads (a table); channel, message: published when any status was new (channel false: nothing)
--   returns {how many statuses were new, a flat array: for each status holding any of the fields, its id, its
--   score, then one value per field (nil where it has none)}
local function copy_profile(timeline, profile, held_key, size, limit, copy_plain, status_key, use_held, names,
                            channel, message)
  local prefix, suffix = string.match(status_key, '^(.*)%z(.*)$')
  local count = #names
  local recent = redis.call('ZREVRANGE', profile, 0, limit - 1, 'WITHSCORES')

  -- What profile:held answers for: statuses posted after `complete_from`, those in `indexed`.
  local use_index = count > 0 and use_held
  local complete_from = nil
  local indexed = {}
  local building = false
  if use_index and #recent > 0 then
    local floor = redis.call('ZSCORE', held_key, '0')
    if floor then
      complete_from = floor == '-inf' and -math.huge or tonumber(floor)
      local oldest = recent[#recent]
      for _, id in ipairs(redis.call('ZRANGEBYSCORE', held_key, oldest, '+inf')) do
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
        added = added + redis.call('ZADD', timeline, unpack(batch))
        batch = {}
      end
    end
  end
  if #batch > 0 then
    added = added + redis.call('ZADD', timeline, unpack(batch))
  end
  if added > 0 then
    redis.call('ZREMRANGEBYRANK', timeline, 0, -size - 1)
    if channel then
      redis.call('PUBLISH', channel, message)
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
      redis.call('ZADD', held_key, unpack(to_index, index, math.min(index + 399, #to_index)))
    end
    redis.call('ZADD', held_key, from, '0')
  end
  return {added, held}
end
