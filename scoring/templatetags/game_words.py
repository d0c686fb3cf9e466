"""``{% load game_words %}``: a game and its changed knobs in words on any page
(``scoring.rules_words``), never the engine's identifiers.

    {{ tournament.rules_preset|game_name }}                          «Спортивное домино»
    {{ tournament.rules_preset|rules_words:tournament.rules_options }}
                                                  «Спортивное домино (Раздач в партии: 12)»
"""

from typing import Any

from django import template

from scoring import rules_words as words

register = template.Library()


@register.filter
def game_name(preset: Any) -> str:
    return words.game_name(preset)


@register.filter
def rules_words(preset: Any, options: Any = None) -> str:
    return words.rules_words(preset, options if isinstance(options, dict) else None)
