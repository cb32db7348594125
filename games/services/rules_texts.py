"""The default rulesets' rules in Polish and Portuguese (``rulesets_install_defaults`` adds
them as ``RulesText`` rows, once each; an organiser may correct them in the admin).

Each part mirrors an English part of ``games/services/rulesets.py`` and uses the words of
``docs/glossary.md``: the rulebooks' own.
"""

from __future__ import annotations

import hashlib

LANGUAGES = ("pl", "pt-br")

# SHA-256 of each default ruleset's Portuguese text as shipped in European Portuguese, before
# the site's Portuguese became Brazilian. A row that still holds one of them was never corrected
# by an organiser, so installing the defaults replaces it with today's text.
SUPERSEDED_SHA256 = frozenset(
    {
        "303e1e87d49924010812ca82f49a9e18191b9423e59fe21eb84779a425e66aa8",
        "8373ed60dc5770e03897e7ae796f73911cc6b3667ff90a5b75980b412c709015",
        "060ddd0fe40b457df5efacea8a16fabb516964a2dafef30a551e33ee16128753",
        "5af0e321e3c812cbcb132ab04577f3081d4992cbe1e0fb1fd6064831a4e01308",
        "d5f8e1d6617f7af23ad97b54b89ac58e28845b5f14fce54d574e0259b64cca12",
        "9a786bc16fcc1a80c69fa3b0a5c89c4118e51c490fa3e8c3b2cd061f1e8eca3e",
    }
)

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
    "pt-br": """\
**To jest napad!** (Nasza Księgarnia, 2021; baseado em *Caramba!* de Michael Schacht), 2–4
jogadores.

> **Cartas padrão criadas pelo clube.** Os valores impressos carta a carta não são conhecidos.
> Cada bando tem as mesmas 15 cartas equilibradas (cada cor tem dez metades de valor 2, 3, 3,
> 4, 4, 5, 5, 6, 6, 7) e cada carga tem vagões de valor 2, 2, 3, 3, 4, 5. Os organizadores podem
> colocar os números do seu exemplar em uma nova versão das regras.

**Preparação.** Três pilhas de vagões viradas para baixo — o tesouro (ouro = amarelo, dinamite
= vermelho, dinheiro = verde). Cada jogador embaralha as 15 cartas do seu bando no esconderijo e
compra 5.

**Uma rodada (6 rodadas).**
1. *Engatar 3 novos vagões*: um vagão de cada carga é engatado ao trem.
2. *Isto é um assalto!* Começando por quem tem o marcador de jogador inicial, na ordem dos
   lugares, cada jogador envia um membro do bando (uma carta com a metade escolhida para cima:
   a cor dela diz pelo que ele luta) ou passa. Quem passou não luta mais nesta rodada. Quem tem
   o marcador não pode passar na primeira vez.
3. *Divisão do saque*, cor por cor: o único total mais alto captura **todos** os vagões dessa
   cor, e essas cartas saem do jogo; as cartas dessa cor dos outros voltam para a mão. Empate no
   topo: ninguém captura, e todas essas cartas voltam para a mão.
4. *Chegada de reforços*: cada um compra 2 cartas do esconderijo; o marcador passa para o lugar
   seguinte.

**Pontuação.** A soma dos valores dos vagões capturados. Um empate é decidido por quem tem mais
cartas na mão; depois disso, o lugar é compartilhado.
""",
}

NAPAD_VARIANT_A_RULES = {
    "pl": """\
**Wariant A: punktacja z kulami.** Dla każdego koloru: *n* = twoje zdobyte wagony tego koloru,
*h* = najwyższa wartość wśród nich; kto ma najwięcej kul tego koloru (na połówkach kart, które
go zdobyły, plus kule samych wagonów; co najmniej jedną), dodaje 1 do *h*. Punkty za kolor =
*n* × *h*.
""",
    "pt-br": """\
**Variante A: pontuação com balas.** Para cada cor: *n* = seus vagões capturados dessa cor,
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
    "pt-br": """\
**Variante B: bônus pelos vagões de valor 2.** Quem capturou mais vagões de valor 2 (de
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
    "pt-br": """\
**Colt Express** (Ludonaute, 2014), 2–6 jogadores, 5 rodadas.

**Preparação.** A locomotiva e um vagão por jogador (dois vagões com 2 jogadores), bens em cada
vagão (sacos de dinheiro virados para baixo, joias), o Xerife e uma maleta dentro da locomotiva.
Cada bandido tem 10 Cartas de Ação, 6 Cartas de Bala e um saco de dinheiro de $250.

**Armação!** Cada um compra 6 cartas (Doc 7). Em cada turno da carta de rodada, cada jogador
baixa uma Carta de Ação na pilha central ou compra 3. Nos turnos normais as cartas são baixadas
viradas para cima, nos túneis viradas para baixo; Acelerar são dois turnos seguidos; Invertido
segue no sentido contrário.

**Execução!** A pilha é executada na ordem em que foi jogada. *Mover* (dentro: um vagão; no
teto: 1–3 vagões), *Mudar de Piso*, *Atirar* (dê uma Carta de Bala a um bandido na sua linha de
visão), *Roubar* (pegue uma peça de bens do seu lugar), *Bater* (um bandido no seu lugar deixa
cair uma peça de bens e é empurrado um vagão), *Xerife* (mova-o um vagão). Um bandido nunca pode
estar dentro do vagão do Xerife: recebe uma Carta de Bala Neutra e passa para cima do vagão. O
dono da carta faz cada escolha quando ela é executada.

**Fim da rodada.** Acontece o evento da carta de rodada; o primeiro jogador passa para a
esquerda.

**Pontuação.** Seus bens, mais $1000 para cada jogador empatado no maior número de tiros
dados (o *Pistoleiro*). Um empate vai para quem levou menos Cartas de Bala; depois disso, os
jogadores compartilham a vitória.

**Personagens.** Belle não é alvo quando outro bandido puder ser; Cheyenne fica com o saco de
dinheiro que faz cair ao bater; os tiros de Django empurram o alvo um vagão para longe; Doc
compra 7; Ghost pode baixar sua primeira carta da rodada virada para baixo; Tuco pode atirar
através do teto do seu vagão.
""",
}

COLT_ROUND_DECK_PUBLISHED = {
    "pl": """\
**Talia rund (jak w wydaniu).** Cztery losowe karty rund dla liczby graczy, a jako piąta runda
karta stacji.
""",
    "pt-br": """\
**Baralho de rodadas (como publicado).** Quatro cartas de rodada sorteadas para o número de
jogadores e, como quinta rodada, uma carta de estação.
""",
}

COLT_ROUND_DECK_GUIDE = {
    "pl": """\
**Talia rund „5 z 7”.** Pięć losowych kart rund z siedmiu dla liczby graczy, bez karty stacji
(tak mówi portugalski przewodnik po zasadach).
""",
    "pt-br": """\
**Baralho de rodadas “5 de 7”.** Cinco das sete cartas de rodada sorteadas para o número de
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
    "pt-br": """\
**Máquina do Tempo.** Um único lugar à frente da locomotiva, vizinho do seu teto e do seu
interior. Um Mover pode entrar nela (do teto, conta como um passo além da locomotiva); o
Xerife nunca entra. Dela é possível atirar nos tetos na linha de visão e no interior da
locomotiva. Depois da Frenagem, os bandidos no teto da locomotiva vão para ela. Se no fim de
uma rodada houver exatamente um bandido lá, ele se esconde em segredo debaixo de um vagão e
reaparece dentro dele quando começa a Execução!; no fim do jogo, um bandido sozinho nela recebe
$500 e os bens que estiverem lá.
""",
}


def translated(parts: list[dict[str, str]], language: str) -> str:
    """The parts of a default ruleset's rules, in ``language``, as the English is joined."""
    return "\n".join(part[language] for part in parts)


def superseded(text: str) -> bool:
    """Whether ``text`` is a default text shipped before and never edited since."""
    return hashlib.sha256(text.encode()).hexdigest() in SUPERSEDED_SHA256
