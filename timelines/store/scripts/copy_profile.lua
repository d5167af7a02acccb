-- Copies an author's newest statuses into a timeline (a follow, a list add), on one server, without sending
-- them to the client: only the few statuses the policy must judge one by one come back (profile_copy.lua).
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
-- include: profile_copy
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'idle') == 1 then
  return {-1, {}}
end
local first_name = 6
local channel, message = false, nil
if #KEYS >= 5 then
  local since = redis.call('ZSCORE', KEYS[5], ARGV[6])
  if not since or tonumber(since) ~= tonumber(ARGV[7]) then
    return {0, {}}
  end
  first_name = 10
  if ARGV[8] ~= '' then
    channel, message = ARGV[8], ARGV[9]
  end
end
local names = {}
for index = first_name, #ARGV do
  names[#names + 1] = ARGV[index]
end
return copy_profile(
  KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4], ARGV[5] == '1', names,
  channel, message
)
