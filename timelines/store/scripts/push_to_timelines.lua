-- The fan-out of one batch (book listing 8.7): adds one status to many timelines and trims each one.
-- One script per batch instead of a pipeline of 2 commands per timeline: the measured fan-out rate is about
-- twice the pipeline's (bench scenario 2), because Redis parses one command and Python packs one.
-- The timelines belong to different users, so KEYS span hash slots: it runs on a single server only. On Redis
-- Cluster a batch of 1,000 followers spans nearly as many slots, and one script per slot was measured about 5x
-- slower than plain ZADD and ZREMRANGEBYRANK pipelined to each node, which store.fanout sends there instead.
-- Idempotent: re-running it changes nothing.
-- KEYS[1..n]  home:{uid} (or other timelines) of one batch
-- ARGV[1]     timeline size to trim to (HOME_TIMELINE_SIZE)
-- ARGV[2]     score (posted time)
-- ARGV[3]     status id
-- returns     n
local trim_below = -tonumber(ARGV[1]) - 1
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  -- Trim on every insert so a burst of posts cannot grow a timeline without bound (book 8.4).
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, trim_below)
end
return #KEYS
