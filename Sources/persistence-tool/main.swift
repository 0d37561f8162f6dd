print("persistence-tool: not built yet")
