-- Library (inlined where a script says "-- include: merge_pulled"): a home page's ids with the pulled posts of
-- the accounts its owner follows merged in (hybrid fan-out, store.pulled), newest first, by the same cursors.
--   merge_pulled(ids, registry, following, template, max_id, since_id, want, cap)
--   ids: the home's own ids for the page (page_ids with offset 0 and `want` ids), newest first
--   registry: pulled:authors (uid -> time of their newest pulled post); following: following:{owner}
--   template: a pulled:{uid} key with "\0" where the uid goes
--   max_id, since_id: the cursors as strings ("0": no bound); want: how many ids to return at most
--   cap: at most this many followed pulled accounts are merged, those whose newest pulled post is newest
--   returns {id, id, ...} newest first, no id twice (a follow's copy can put a pulled post in the home too)
local function merge_pulled(ids, registry, following, template, max_id, since_id, want, cap)
  local registered = redis.call('ZCARD', registry)
  if registered == 0 or cap <= 0 then
    return ids
  end
  local chosen = {}
  -- Intersect from the smaller side: a registry of a few celebrities, or a reader following few accounts.
  if registered <= redis.call('ZCARD', following) then
    local authors = redis.call('ZREVRANGE', registry, 0, -1)
    for _, uid in ipairs(authors) do
      if redis.call('ZSCORE', following, uid) then
        chosen[#chosen + 1] = uid
        if #chosen >= cap then
          break
        end
      end
    end
  else
    local found = {}
    for _, uid in ipairs(redis.call('ZRANGE', following, 0, -1)) do
      local last = redis.call('ZSCORE', registry, uid)
      if last then
        found[#found + 1] = { uid, tonumber(last) }
      end
    end
    table.sort(found, function(a, b) return a[2] > b[2] end)
    for i = 1, math.min(cap, #found) do
      chosen[i] = found[i][1]
    end
  end
  if #chosen == 0 then
    return ids
  end
  local prefix, suffix = string.match(template, '^(.*)%z(.*)$')
  local top = max_id ~= '0' and ('(' .. max_id) or '+inf'
  local bottom = since_id ~= '0' and ('(' .. since_id) or '-inf'
  -- Ids compared as numbers (converted once: the sort compares each many times), kept as the text read.
  local text, merged = {}, {}
  local function add(id)
    local number = tonumber(id)
    if not text[number] then
      text[number] = id
      merged[#merged + 1] = number
    end
  end
  for _, id in ipairs(ids) do
    add(id)
  end
  for _, uid in ipairs(chosen) do
    for _, id in ipairs(redis.call('ZREVRANGEBYSCORE', prefix .. uid .. suffix, top, bottom, 'LIMIT', 0, want)) do
      add(id)
    end
  end
  table.sort(merged, function(a, b) return a > b end)
  local page = {}
  for i = 1, math.min(want, #merged) do
    page[i] = text[merged[i]]
  end
  return page
end
