from hostcompat.engine.scan.needs import (
    ALL_NEEDS,
    APP_GUARD_KEYS,
    APP_HANDLER_PROPERTIES,
    APP_METHOD_NEEDS,
    MCP_UI_TYPE_NEEDS,
    MCPJAM_NEEDS,
    OPENAI_METHOD_NEEDS,
    WIRE_METHOD_NEEDS,
    confidence_rank,
)


def test_every_style_table_points_at_a_known_need() -> None:
    tables = [APP_METHOD_NEEDS, APP_HANDLER_PROPERTIES, WIRE_METHOD_NEEDS, OPENAI_METHOD_NEEDS, MCP_UI_TYPE_NEEDS]
    for table in tables:
        assert set(table.values()) <= set(ALL_NEEDS)
    assert set(APP_GUARD_KEYS) <= set(ALL_NEEDS)


def test_mcpjam_needs_come_first_and_ids_are_unique() -> None:
    assert ALL_NEEDS[: len(MCPJAM_NEEDS)] == MCPJAM_NEEDS
    assert len(set(ALL_NEEDS)) == len(ALL_NEEDS)


def test_confidence_ranks_high_over_medium_over_low() -> None:
    assert confidence_rank("high") > confidence_rank("medium") > confidence_rank("low") > confidence_rank("bogus")
