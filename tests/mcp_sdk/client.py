"""The official MCP Python SDK against the running Liftdesk server.

Connects to {LIFTDESK_URL}/api/mcp with the demo admin's API token (the
Authorization header on the SDK's HTTP client), lists the tools, calls two of
them and compares their answers with the REST API v2's. Also checks that the
server refuses a request without a token before any MCP processing.
Exits non-zero, with a French message, on any difference.
"""

import asyncio
import json
import os
import sys
import urllib.error
import urllib.request

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

URL = os.environ["LIFTDESK_URL"]
CREDENTIALS = json.load(open(os.environ["LIFTDESK_CREDENTIALS"]))
TOKEN = CREDENTIALS["admin"]["apiToken"]


def fail(message: str) -> None:
    print(f"ÉCHEC : {message}", file=sys.stderr)
    sys.exit(1)


def rest(path: str):
    request = urllib.request.Request(f"{URL}/api/v2{path}", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def text_of(result) -> str:
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    if not texts:
        fail(f"réponse sans texte : {result}")
    return texts[0]


async def main() -> None:
    # No token: refused by the server before any MCP processing.
    request = urllib.request.Request(
        f"{URL}/api/mcp",
        data=b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
        method="POST",
    )
    try:
        urllib.request.urlopen(request)
        fail("une requête sans jeton a été acceptée")
    except urllib.error.HTTPError as refused:
        if refused.code != 401:
            fail(f"sans jeton : HTTP {refused.code} au lieu de 401")

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        async with Client(streamable_http_client(f"{URL}/api/mcp", http_client=http)) as client:
            tools = (await client.list_tools()).tools
            names = sorted(tool.name for tool in tools)
            for needed in ("compte", "techniciens"):
                if needed not in names:
                    fail(f"l'outil « {needed} » manque parmi {names}")
            for tool in tools:
                if not tool.description or tool.input_schema.get("type") != "object":
                    fail(f"l'outil « {tool.name} » n'a pas de description ou de schéma d'entrée objet")

            account = await client.call_tool("compte", {})
            if account.is_error:
                fail(f"« compte » a répondu une erreur : {text_of(account)}")
            if json.loads(text_of(account)) != rest("/me"):
                fail("« compte » ne répond pas comme GET /api/v2/me")
            if account.structured_content != rest("/me"):
                fail("le contenu structuré de « compte » diffère de GET /api/v2/me")

            technicians = await client.call_tool("techniciens", {})
            if technicians.is_error:
                fail(f"« techniciens » a répondu une erreur : {text_of(technicians)}")
            listed = json.loads(text_of(technicians))
            if listed != rest("/technicians") or not listed:
                fail("« techniciens » ne répond pas comme GET /api/v2/technicians")

    print(
        f"SDK MCP Python : {len(names)} outils listés, « compte » et « techniciens » "
        f"identiques à l'API REST v2 ({len(listed)} techniciens), requête sans jeton refusée (401)."
    )


asyncio.run(main())
