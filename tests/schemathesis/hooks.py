"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS by run.sh).

The PDF documents (`GET /invoices/{id}/pdf`, `GET /quotes/{id}/pdf`) are
described as `{"type": "string", "format": "binary"}`. This deserializer
lets Schemathesis check them too: the body must be a whole PDF file (its
`%PDF-` header and its `%%EOF` trailer), then it is handed to the schema
check as the string it is.
"""

import schemathesis


@schemathesis.deserializer("application/pdf")
def pdf_document(ctx, response):
    body = response.content
    if not body.startswith(b"%PDF-"):
        raise ValueError("la réponse application/pdf ne commence pas par l'en-tête %PDF-")
    if b"%%EOF" not in body[-1024:]:
        raise ValueError("document PDF tronqué : pas de marque %%EOF à la fin")
    return body.decode("latin-1")
