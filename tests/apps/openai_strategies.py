"""Shared examples and hypothesis strategies for the OpenAI mapping tests: `_meta` objects with both key sets."""

from __future__ import annotations

from hypothesis import strategies as st

from hostcompat.apps.meta.access import ResourceCSP, ResourceUI
from hostcompat.apps.openai.mapping import (
    OPENAI_OUTPUT_TEMPLATE,
    OPENAI_VISIBILITY,
    OPENAI_WIDGET_ACCESSIBLE,
    OPENAI_WIDGET_CSP,
    OPENAI_WIDGET_DESCRIPTION,
    OPENAI_WIDGET_DOMAIN,
    OPENAI_WIDGET_PREFERS_BORDER,
)

URI = "ui://widget/board.html"

OPENAI_RESOURCE_META = {
    OPENAI_WIDGET_CSP: {
        "connect_domains": ["https://api.example"],
        "resource_domains": ["https://cdn.example"],
        "frame_domains": ["https://embed.example"],
        "redirect_domains": ["https://checkout.example"],
    },
    OPENAI_WIDGET_DOMAIN: "https://board.example",
    OPENAI_WIDGET_PREFERS_BORDER: False,
}
MCP_RESOURCE_UI = ResourceUI(
    csp=ResourceCSP(
        connect_domains=("https://api.example",),
        resource_domains=("https://cdn.example",),
        frame_domains=("https://embed.example",),
    ),
    link_trusted_domains=("https://checkout.example",),
    domain="https://board.example",
    prefers_border=False,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
domain_lists = st.lists(st.sampled_from(["https://a.example", "https://b.example", "wss://c.example"]), max_size=3)
plausible = {
    OPENAI_OUTPUT_TEMPLATE: st.sampled_from([URI, "ui://other", "https://x"]),
    OPENAI_WIDGET_ACCESSIBLE: st.booleans(),
    OPENAI_VISIBILITY: st.sampled_from(["public", "private"]),
    OPENAI_WIDGET_CSP: st.dictionaries(
        st.sampled_from(["connect_domains", "resource_domains", "frame_domains", "redirect_domains", "x"]),
        domain_lists,
    ),
    OPENAI_WIDGET_DOMAIN: st.text(max_size=10),
    OPENAI_WIDGET_PREFERS_BORDER: st.booleans(),
    OPENAI_WIDGET_DESCRIPTION: st.text(max_size=10),
    "ui": st.fixed_dictionaries(
        {},
        optional={
            "resourceUri": st.just(URI),
            "visibility": st.lists(st.sampled_from(["model", "app"]), max_size=2, unique=True),
            "csp": st.fixed_dictionaries({}, optional={"connectDomains": domain_lists, "frameDomains": domain_lists}),
            "domain": st.text(max_size=10),
            "prefersBorder": st.booleans(),
            "linkTrustedDomains": domain_lists,
        },
    ),
}
metas = st.fixed_dictionaries({}, optional={key: strategy | json_values for key, strategy in plausible.items()})
