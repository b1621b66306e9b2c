-- random page of the 10,000-product catalog per request
math.randomseed(42)
request = function()
  local limit = tonumber(os.getenv("LIMIT") or "50")
  local off = math.random(0, 10000 - limit)
  return wrk.format("GET", "/api/v1/products?limit=" .. limit .. "&offset=" .. off)
end
