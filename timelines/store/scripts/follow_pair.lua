-- A follow on one server, read and made in one step when nothing stands in its way: both users' account flags
-- and domains, and the relations between the two both ways (what store.privacy.relations reads for a follow), then, when both users
-- exist, neither blocks the other, and the follower already follows or the followee is neither private nor
-- another server's account (its hash has no "private", no "domain"), both sides of the graph as graph_add.lua
-- writes them, and the follow's notification id. Otherwise nothing is written and the caller decides from what
-- was read (a refusal, a follow request); it makes the follow itself when its policy allows one anyway. The
-- keys span slots: a Redis Cluster reads and writes in round trips of their own (services.follows).
-- KEYS[1]  user:{x}          HASH
-- KEYS[2]  user:{y}          HASH
-- KEYS[3]  following:{x}     ZSET
-- KEYS[4]  followers:{y}     ZSET
-- KEYS[5]  followers:{x}     ZSET
-- KEYS[6]  blocks:{x}        ZSET
-- KEYS[7]  blocks:{y}        ZSET
-- KEYS[8]  muted_by:{x}      ZSET
-- KEYS[9]  muted_by:{y}      ZSET
-- KEYS[10] profile:{y}       ZSET, only counted: a follow of an account with no statuses has nothing to copy
-- KEYS[11] optional: notification:id: (keys.NOTIFICATION_ID_COUNTER), INCR'd when the follow is written
-- KEYS[12..15] with the tail below: notifications:{y}, notifications:read:{y}, notifications:unread:{y} (the
--          followee's feed, as add_notification.lua takes it) and the day's stats:{stats}:active:<day> HLL
-- KEYS[16..17] with the tail's copy: home:{x} and profile:held:{y} (see profile_copy.lua)
-- ARGV[1]  x, the follower's uid
-- ARGV[2]  y, the followee's uid
-- ARGV[3]  score (time of following); an existing member keeps its original time
-- ARGV[4]  n, how many field names follow
-- ARGV[5..4+n]  the fields of user:{x} and user:{y} to read (HMGET; the account flags and "domain")
-- ARGV[5+n..] optional, "the tail": the rest of a new follow, as the caller prepared it for the plain case (no
--          field set on either user, no block, no mute either way, neither following the other before), done
--          here only when what was read is that case: the event channel, the follow's event, the TTL of the
--          active-users HLL (x is added to it), "1" if y is to be notified else "0", then five values (empty
--          when not notified): the notification's JSON before its id and after it, how many notifications a
--          feed keeps, and the notification event's JSON before the unread count and after it (see
--          notification_feed.lua); then "1" and the copy's arguments when the caller prepared a copy of y's
--          statuses into home:{x}: the size, the limit, "1" if the statuses holding none of the fields may be
--          copied, the status key with "\0" for the id, "1" if profile:held answers for the fields, the home's
--          reset event channel ("" for none) and message, and the fields (see profile_copy.lua). Without a copy
--          the tail is done only when profile:{y} is empty; with it, not while home:{x}'s owner is idle.
-- returns  {user:{x}'s fields as HMGET gives them, or 0 when it does not exist, user:{y}'s likewise, 1 if either
--           blocks the other, 1 if x mutes y,
--           1 if y mutes x, 1 if x follows y, 1 if y follows x (all read before any write), 1 if the follow
--           was written, graph_add's reply for x's side, for y's side (1 added, 0 already), the notification id
--           taken (0: none), how many statuses profile:{y} holds (0 when nothing was written), 1 if the tail
--           was done, the copy's reply ({new, held}, as copy_profile returns it) when the tail copied, else 0}
-- include: notification_feed
-- include: profile_copy
local count = tonumber(ARGV[4])
local names = {unpack(ARGV, 5, 4 + count)}
local tail = 5 + count
local mine, theirs = 0, 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  mine = redis.call('HMGET', KEYS[1], unpack(names))
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  theirs = redis.call('HMGET', KEYS[2], unpack(names))
end
if mine == 0 or theirs == 0 then
  return {mine, theirs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
end
local function holds(key, member)
  if redis.call('ZSCORE', key, member) then
    return 1
  end
  return 0
end
local blocked = math.max(holds(KEYS[6], ARGV[2]), holds(KEYS[7], ARGV[1]))
local reply = {
  mine, theirs, blocked, holds(KEYS[9], ARGV[1]), holds(KEYS[8], ARGV[2]), holds(KEYS[4], ARGV[1]),
  holds(KEYS[5], ARGV[2]), 0, 0, 0, 0, 0, 0, 0,
}
if blocked == 1 then
  return reply
end
if reply[6] == 0 then
  for index, name in ipairs(names) do
    if (name == 'private' or name == 'domain') and theirs[index] and theirs[index] ~= '' then
      return reply
    end
  end
end
reply[9] = redis.call('ZADD', KEYS[3], 'NX', ARGV[3], ARGV[2])
redis.call('HSET', KEYS[1], 'following', redis.call('ZCARD', KEYS[3]))
reply[10] = redis.call('ZADD', KEYS[4], 'NX', ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], 'followers', redis.call('ZCARD', KEYS[4]))
reply[8] = 1
if KEYS[11] then
  reply[11] = redis.call('INCR', KEYS[11])
end
reply[12] = redis.call('ZCARD', KEYS[10])
local copy = ARGV[tail + 9] == '1'
if not ARGV[tail] or not KEYS[11] or reply[9] == 0 or (reply[12] > 0 and not copy) then
  return reply
end
for index = 3, 7 do
  if reply[index] ~= 0 then
    return reply
  end
end
for index = 1, count do
  if (mine[index] and mine[index] ~= '') or (theirs[index] and theirs[index] ~= '') then
    return reply
  end
end
if reply[12] > 0 then
  if redis.call('HEXISTS', KEYS[1], 'idle') == 1 then
    return reply
  end
  local channel = ARGV[tail + 15]
  reply[14] = copy_profile(
    KEYS[16], KEYS[10], KEYS[17], tonumber(ARGV[tail + 10]), tonumber(ARGV[tail + 11]), ARGV[tail + 12] == '1',
    ARGV[tail + 13], ARGV[tail + 14] == '1', {unpack(ARGV, tail + 17)}, channel ~= '' and channel, ARGV[tail + 16]
  )
end
if ARGV[tail + 3] == '1' then
  add_notification(
    KEYS[12], KEYS[13], KEYS[14], reply[11], ARGV[tail + 4] .. reply[11] .. ARGV[tail + 5], ARGV[tail + 6],
    ARGV[tail], ARGV[tail + 7], ARGV[tail + 8]
  )
end
redis.call('PFADD', KEYS[15], ARGV[1])
redis.call('EXPIRE', KEYS[15], ARGV[tail + 2])
redis.call('PUBLISH', ARGV[tail], ARGV[tail + 1])
reply[13] = 1
return reply
