"""The default rulesets' rules in Polish and Portuguese (``rulesets_install_defaults`` adds
them as ``RulesText`` rows, once each; an organiser may correct them in the admin).

Each part mirrors an English part of ``games/services/rulesets.py`` and uses the words of
``docs/glossary.md``: the rulebooks' own.
"""

from __future__ import annotations

LANGUAGES = ("pl", "pt")

NAPAD_RULES = {
    "pl": """\
**To jest napad!** (Nasza Księgarnia, 2021; na podstawie *Caramby!* Michaela Schachta), 2–4 graczy.

> **Zaprojektowane domyślne karty.** Wydrukowane wartości kart nie są znane. Każdy gang ma te
> same zrównoważone 15 kart (każdy kolor ma dziesięć połówek o wartościach 2, 3, 3, 4, 4, 5, 5,
> 6, 6, 7), a każdy ładunek ma wagony o wartościach 2, 2, 3, 3, 4, 5. Organizatorzy mogą w nowej
> wersji zasad wpisać liczby ze swojego egzemplarza.

**Przygotowanie.** Trzy zakryte stosy wagonów — skarbiec (złoto = żółty, dynamit = czerwony,
pieniądze = zielony). Każdy gracz tasuje 15 kart swojego gangu w kryjówkę i dobiera 5.

**Runda (6 rund).**
1. *Doczepienie 3 nowych wagonów*: do pociągu dołącza po jednym wagonie każdego ładunku.
2. *„To jest napad!”* Od gracza ze znacznikiem gracza rozpoczynającego, po kolei, każdy wysyła
   jednego członka gangu (kładzie kartę wybraną połówką do góry: jej kolor mówi, o co walczy)
   albo pasuje. Kto spasował, nie walczy już w tej rundzie. Gracz ze znacznikiem nie może
   spasować w swojej pierwszej turze.
3. *„Podział łupów”*, osobno dla każdego koloru: jedyna najwyższa suma zdobywa **wszystkie**
   wagony tego koloru, a te karty odpadają z gry; karty tego koloru pozostałych graczy wracają
   do ręki. Remis na szczycie: nikt nie zdobywa, wszystkie te karty wracają do ręki.
4. *„Przybycie posiłków”*: każdy dobiera 2 karty z kryjówki; znacznik przechodzi do następnego
   miejsca.

**Punktacja.** Suma wartości zdobytych wagonów. Remis rozstrzyga więcej kart w ręce; dalej
miejsce jest wspólne.
""",
    "pt": """\
**To jest napad!** (Nasza Księgarnia, 2021; a partir de *Caramba!* de Michael Schacht), 2–4
jogadores.

> **Cartas predefinidas concebidas.** Os valores impressos carta a carta não são conhecidos.
> Cada bando tem as mesmas 15 cartas equilibradas (cada cor tem dez metades de valor 2, 3, 3,
> 4, 4, 5, 5, 6, 6, 7) e cada carga tem vagões de valor 2, 2, 3, 3, 4, 5. Os organizadores podem
> pôr os números do seu exemplar numa nova versão das regras.

**Preparação.** Três pilhas de vagões viradas para baixo — o tesouro (ouro = amarelo, dinamite
= vermelho, dinheiro = verde). Cada jogador baralha as 15 cartas do seu bando no esconderijo e
compra 5.

**Uma ronda (6 rondas).**
1. *Engatar 3 novos vagões*: junta-se ao comboio um vagão de cada carga.
2. *Isto é um assalto!* A partir de quem tem o marcador de jogador inicial, pela ordem dos
   lugares, cada jogador envia um membro do bando (uma carta com a metade escolhida para cima:
   a sua cor diz pelo que luta) ou passa. Quem passou já não luta nesta ronda. Quem tem o
   marcador não pode passar na sua primeira vez.
3. *Divisão do saque*, cor a cor: o único total mais alto captura **todos** os vagões dessa
   cor e essas cartas saem do jogo; as cartas dessa cor dos outros voltam à mão. Empate no
   topo: ninguém captura, todas essas cartas voltam à mão.
4. *Chegada de reforços*: cada um compra 2 cartas do esconderijo; o marcador passa ao lugar
   seguinte.

**Pontuação.** A soma dos valores dos vagões capturados. Um empate é decidido por mais cartas
na mão; depois disso, o lugar é partilhado.
""",
}

NAPAD_VARIANT_A_RULES = {
    "pl": """\
**Wariant A: punktacja z kulami.** Dla każdego koloru: *n* = twoje zdobyte wagony tego koloru,
*h* = najwyższa wartość wśród nich; kto ma najwięcej kul tego koloru (na połówkach kart, które
go zdobyły, plus kule samych wagonów; co najmniej jedną), dodaje 1 do *h*. Punkty za kolor =
*n* × *h*.
""",
    "pt": """\
**Variante A: pontuação com balas.** Para cada cor: *n* = os seus vagões capturados dessa cor,
*h* = o valor mais alto entre eles; quem tiver mais balas dessa cor (nas metades das cartas que
a capturaram, mais as balas dos próprios vagões; pelo menos uma) soma 1 a *h*. Pontos da cor
= *n* × *h*.
""",
}

NAPAD_VARIANT_B_RULES = {
    "pl": """\
**Wariant B: premia za wagony o wartości 2.** Kto zdobył najwięcej wagonów o wartości 2
(dowolnego koloru; co najmniej jeden), dostaje +1 za każdy z nich; przy remisie dostają wszyscy
remisujący.
""",
    "pt": """\
**Variante B: bónus pelos vagões de valor 2.** Quem capturou mais vagões de valor 2 (de
qualquer cor; pelo menos um) ganha +1 por cada um; em caso de empate, ganham todos os
empatados.
""",
}

COLT_RULES = {
    "pl": """\
**Colt Express** (Ludonaute, 2014), 2–6 graczy, 5 rund.

**Przygotowanie.** Lokomotywa i po jednym Wagonie na gracza (dwa Wagony przy 2 graczach), Łup
w każdym Wagonie (sakiewki zakryte, klejnoty), Szeryf i kasetka w Lokomotywie. Każdy Bandyta
ma 10 kart akcji, 6 kul i sakiewkę o wartości 250 $.

**„Planowanie!”** Każdy dobiera 6 kart (Doc 7). Na każdą turę z karty rundy każdy gracz
zagrywa jedną kartę akcji na wspólny stos albo dobiera 3. Zwykłe tury gra się odkryte, tunele
zakryte; tura przyspieszenia to dwie tury z rzędu; tura zmiany kolejności idzie w przeciwną
stronę.

**„Napad!”** Stos rozpatruje się od pierwszej zagranej karty. *Ruch* (we wnętrzu: jeden
Wagon; na dachu: 1–3 Wagony), *Zmiana poziomu*, *Strzał* (daj kartę kuli Bandycie w zasięgu
wzroku), *Rabunek* (weź jeden żeton Łupu ze swojego pola), *Cios* (Bandyta na twoim polu
upuszcza Łup i zostaje przesunięty o jeden Wagon), *Szeryf* (przesuń go o jeden Wagon).
Bandyta nigdy nie może być we wnętrzu Wagonu Szeryfa: dostaje neutralną kulę i wspina się na
dach. Właściciel karty dokonuje każdego wyboru, gdy karta jest rozpatrywana.

**Koniec rundy.** Zachodzi wydarzenie z karty rundy; pierwszy gracz przechodzi w lewo.

**Punktacja.** Twój Łup plus 1000 $ dla każdego gracza, który oddał najwięcej strzałów
(*Rewolwerowiec*). Remis wygrywa ten, kto dostał mniej kart kul; dalej remis zostaje.

**Postacie.** Belle nie może być celem, gdy celem może być inny Bandyta; Cheyenne zatrzymuje
sakiewkę, którą wybije ciosem; strzały Django przesuwają cel o Wagon dalej; Doc dobiera 7;
Ghost może zagrać pierwszą kartę rundy zakrytą; Tuco może strzelać przez dach swojego Wagonu.
""",
    "pt": """\
**Colt Express** (Ludonaute, 2014), 2–6 jogadores, 5 rondas.

**Preparação.** A locomotiva e um vagão por jogador (dois vagões com 2 jogadores), bens em cada
vagão (sacos de dinheiro virados para baixo, joias), o Xerife e uma maleta na locomotiva. Cada
bandido tem 10 Cartas de Ação, 6 balas e um saco de dinheiro de $250.

**Armação!** Cada um compra 6 cartas (Doc 7). Em cada turno da carta de ronda, cada jogador
baixa uma Carta de Ação na pilha comum ou compra 3. Os turnos normais jogam-se virados para
cima, os túneis virados para baixo; Acelerar são dois turnos seguidos; Invertido segue no
sentido contrário.

**Execução!** A pilha executa-se pela ordem em que foi jogada. *Mover* (dentro: um vagão; no
teto: 1–3 vagões), *Mudar de Piso*, *Atirar* (dê uma Carta de Bala a um bandido na sua linha de
visão), *Roubar* (pegue uma peça de bens do seu lugar), *Bater* (um bandido no seu lugar larga
uma peça de bens e é empurrado um vagão), *Xerife* (mova-o um vagão). Um bandido nunca pode
estar dentro do vagão do Xerife: leva uma Carta de Bala Neutra e sobe para o teto. O dono da
carta faz cada escolha quando ela se executa.

**Fim da ronda.** Acontece o evento da carta de ronda; o primeiro jogador passa para a
esquerda.

**Pontuação.** Os seus bens, mais $1000 para cada jogador empatado no maior número de tiros
dados (o *Pistoleiro*). Um empate vai para quem levou menos Cartas de Bala; depois disso,
partilham a vitória.

**Personagens.** Belle não é alvo quando outro bandido o puder ser; Cheyenne fica com o saco de
dinheiro que faz cair ao bater; os tiros de Django empurram o alvo um vagão para longe; Doc
compra 7; Ghost pode baixar a sua primeira carta da ronda virada para baixo; Tuco pode atirar
através do teto do seu vagão.
""",
}

COLT_ROUND_DECK_PUBLISHED = {
    "pl": """\
**Talia rund (jak w wydaniu).** Cztery losowe karty rund dla liczby graczy, a jako piąta runda
karta stacji.
""",
    "pt": """\
**Baralho de rondas (como publicado).** Quatro cartas de ronda ao acaso para o número de
jogadores e, como quinta ronda, uma carta de estação.
""",
}

COLT_ROUND_DECK_GUIDE = {
    "pl": """\
**Talia rund „5 z 7”.** Pięć losowych kart rund z siedmiu dla liczby graczy, bez karty stacji
(tak mówi portugalski przewodnik po zasadach).
""",
    "pt": """\
**Baralho de rondas «5 de 7».** Cinco cartas de ronda ao acaso das sete para o número de
jogadores, sem carta de estação (como diz o guia de regras).
""",
}

COLT_TIME_MACHINE_RULES = {
    "pl": """\
**Wehikuł Czasu.** Jedno pole przed Lokomotywą, sąsiadujące z jej dachem i wnętrzem. Ruch może
do niego prowadzić (z dachu liczy się jako jeden krok za Lokomotywą); Szeryf nigdy do niego nie
wchodzi. Z Wehikułu Czasu można strzelać do dachów w zasięgu wzroku i do wnętrza Lokomotywy. Po
„Hamowaniu” Bandyci z dachu Lokomotywy trafiają do niego. Jeśli na koniec rundy jest w nim
dokładnie jeden Bandyta, w tajemnicy chowa się pod Wagonem i pojawia się w nim, gdy zaczyna się
faza „Napad!”; na koniec gry samotny Bandyta w Wehikule Czasu dostaje 500 $ i leżący w nim Łup.
""",
    "pt": """\
**Máquina do Tempo.** Um único lugar à frente da locomotiva, vizinho do seu teto e do seu
interior. Um Mover pode entrar nela (do teto conta como um passo para lá da locomotiva); o
Xerife nunca entra. Dela pode atirar nos tetos na sua linha de visão e no interior da
locomotiva. Depois da Frenagem, os bandidos no teto da locomotiva vão para ela. Se no fim de uma
ronda estiver lá exatamente um bandido, esconde-se em segredo debaixo de um vagão e reaparece
dentro dele quando começa a Execução!; no fim do jogo, um bandido sozinho nela recebe $500 e os
bens que lá estiverem.
""",
}


def translated(parts: list[dict[str, str]], language: str) -> str:
    """The parts of a default ruleset's rules, in ``language``, as the English is joined."""
    return "\n".join(part[language] for part in parts)
