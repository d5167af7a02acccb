-- Some fields of many status hashes, sparsely: only the statuses that hold any of them. A refill or a copy of
-- 1,000 statuses asks for fields that nearly no status has (``private``, a repost's original author), so the
-- reply is a few entries instead of 1,000 arrays of nils for the client to parse.
-- KEYS     status:{id} ...   HASH (on one server only: the keys span slots)
-- ARGV     the field names to read (HMGET)
-- returns  a flat array: for each status holding any field, its 1-based position in KEYS, then one value per
--          field (nil where it has none)
local out = {}
local count = #ARGV
for position, key in ipairs(KEYS) do
  local values = redis.call('HMGET', key, unpack(ARGV))
  for field = 1, count do
    if values[field] then
      out[#out + 1] = position
      for index = 1, count do
        out[#out + 1] = values[index]
      end
      break
    end
  end
end
return out
