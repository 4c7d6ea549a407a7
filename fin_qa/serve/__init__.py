"""`fin-qa serve`: one process that loads the store, the rules and the chat model once and answers over
HTTP (app.py: the API and the page; service.py: the pool of store connections and the reads; queue.py:
the chat model's bounded queue; pages.py: cited pages rendered with what they cite boxed)."""
