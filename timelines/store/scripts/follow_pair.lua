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
-- ARGV[1]  x, the follower's uid
-- ARGV[2]  y, the followee's uid
-- ARGV[3]  score (time of following); an existing member keeps its original time
-- ARGV[4..]  the fields of user:{x} and user:{y} to read (HMGET; the account flags and "domain")
-- returns  {user:{x}'s fields as HMGET gives them, or 0 when it does not exist, user:{y}'s likewise, 1 if either
--           blocks the other, 1 if x mutes y,
--           1 if y mutes x, 1 if x follows y, 1 if y follows x (all read before any write), 1 if the follow
--           was written, graph_add's reply for x's side, for y's side (1 added, 0 already), the notification id
--           taken (0: none), how many statuses profile:{y} holds (0 when nothing was written)}
local names = {unpack(ARGV, 4)}
local mine, theirs = 0, 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  mine = redis.call('HMGET', KEYS[1], unpack(names))
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  theirs = redis.call('HMGET', KEYS[2], unpack(names))
end
if mine == 0 or theirs == 0 then
  return {mine, theirs, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
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
  holds(KEYS[5], ARGV[2]), 0, 0, 0, 0, 0,
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
return reply
