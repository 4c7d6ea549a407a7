def parse_text_statement(doc, kind, page_no, title, year, table):
    return None
