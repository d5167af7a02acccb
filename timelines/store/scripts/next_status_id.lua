-- Allocates the next status id and its posted time in one step, so that status ids and posted times grow
-- in the same order. Timelines are scored by posted time; this is what lets readers page them by id.
-- KEYS[1]  status:id:   HASH  last -> last status id, clock -> last posted time in microseconds
-- ARGV     (none)
-- returns  {status id, posted time in microseconds as a decimal string}
if redis.replicate_commands then
  -- Redis < 7 refuses writes after TIME unless effects replication is on; later versions ignore this.
  redis.replicate_commands()
end
local id = redis.call('HINCRBY', KEYS[1], 'last', 1)
local now = redis.call('TIME')
local micros = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = tonumber(redis.call('HGET', KEYS[1], 'clock') or '0')
-- Strictly increasing even if the clock steps back or two posts land in the same microsecond.
if micros <= last then
  micros = last + 1
end
local text = string.format('%.0f', micros)
redis.call('HSET', KEYS[1], 'clock', text)
return {id, text}
