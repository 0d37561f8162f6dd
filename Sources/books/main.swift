print("books: not built yet")
