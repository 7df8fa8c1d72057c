mkdir -p r/result.json
