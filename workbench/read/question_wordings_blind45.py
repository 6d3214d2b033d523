"""Generated questions worded in Estonian, Latvian, Macedonian, Bengali and Georgian (blind45), kept apart from the
other tables so no module outgrows a screenful of templates.

Before, these files' questions came out in English ("How much is the საფერავი 2021, ქვევრი?"). Each names the product
as the file writes it, in the nominative where the language declines it (the subject of "Kui palju maksab …?", "Cik
maksā …?", "Колку чини …?", "რა ღირს …?"), so it is found word for word; Bengali joins its genitive to the name with
a hyphen ("…-এর দাম কত?"), as its shops write after a name in Latin letters or a number.
"""

from __future__ import annotations

from workbench.read.question_wording import Wording
from workbench.read.question_wordings_script import _units

ESTONIAN = Wording(
    asks={
        "price": "Kui palju maksab {product}?", "colour": "Mis värvi on {product}?", "size": "Mis suurused on {product}?",
        "material": "Millest on tehtud {product}?", "stock": "Kas {product} on laos?",
        "warranty": "Kui pikk garantii on {product}?", "care": "Kuidas hooldada: {product}?",
        "weight": "Kui palju kaalub {product}?", "dimensions": "Mis mõõdud on {product}?",
        "width": "Kui lai on {product}?", "height": "Kui kõrge on {product}?", "depth": "Kui sügav on {product}?",
        "length": "Kui pikk on {product}?", "delivery": "Millal jõuab kohale {product}?",
        "category": "Mis kategoorias on {product}?", "description": "Mis on {product}?",
        "brand": "Mis kaubamärk on {product}?",
    },
    count="Mitu tükki on laos: {product}?",
    returns={"exchange": "Kas {product} saab ümber vahetada?", "refund": "Kas {product} eest saab raha tagasi?",
             "return": "Kas {product} saab tagastada?"},
    other="{column}: {product}?",
    in_unit=", {unit}?",
    units=_units("millimeetrites, sentimeetrites, meetrites, tollides, jalgades, grammides, kilogrammides, naelades, "
                 "untsides, liitrites, milliliitrites"),
)

LATVIAN = Wording(
    asks={
        "price": "Cik maksā {product}?", "colour": "Kādās krāsās ir {product}?", "size": "Kādos izmēros ir {product}?",
        "material": "No kā ir izgatavots {product}?", "stock": "Vai {product} ir noliktavā?",
        "warranty": "Kāda garantija ir {product}?", "care": "Kā kopt: {product}?", "weight": "Cik sver {product}?",
        "dimensions": "Kādi izmēri ir {product}?", "width": "Cik plats ir {product}?", "height": "Cik augsts ir {product}?",
        "depth": "Cik dziļš ir {product}?", "length": "Cik garš ir {product}?",
        "delivery": "Cik ātri tiks piegādāts {product}?", "category": "Kurā kategorijā ir {product}?",
        "description": "Kas ir {product}?", "brand": "Kāds ražotājs ir {product}?",
    },
    count="Cik gabalu ir noliktavā: {product}?",
    returns={"exchange": "Vai {product} var apmainīt?", "refund": "Vai par {product} var atgūt naudu?",
             "return": "Vai {product} var atgriezt?"},
    other="{column}: {product}?",
    in_unit=", {unit}?",
    units=_units("milimetros, centimetros, metros, collās, pēdās, gramos, kilogramos, mārciņās, uncēs, litros, "
                 "mililitros"),
)

MACEDONIAN = Wording(
    asks={
        "price": "Колку чини {product}?", "colour": "Во кои бои го има {product}?", "size": "Во кои големини го има {product}?",
        "material": "Од кој материјал е {product}?", "stock": "Дали {product} е на залиха?",
        "warranty": "Каква гаранција има {product}?", "care": "Како се одржува {product}?",
        "weight": "Колку тежи {product}?", "dimensions": "Кои се димензиите на {product}?",
        "width": "Колкава е ширината на {product}?", "height": "Колкава е висината на {product}?",
        "depth": "Колкава е длабочината на {product}?", "length": "Колкава е должината на {product}?",
        "delivery": "За колку дена стигнува {product}?", "category": "Во која категорија е {product}?",
        "description": "Што е {product}?", "brand": "Која марка е {product}?",
    },
    count="Колку парчиња има на залиха од {product}?",
    returns={"exchange": "Може ли да се замени {product}?", "refund": "Дали ги враќате парите за {product}?",
             "return": "Може ли да се врати {product}?"},
    other="{column}: {product}?",
    in_unit=", во {unit}?",
    units=_units("милиметри, сантиметри, метри, инчи, стапки, грамови, килограми, фунти, унци, литри, милилитри"),
)

BENGALI = Wording(
    asks={
        "price": "{product}-এর দাম কত?", "colour": "{product} কোন কোন রঙে পাওয়া যায়?",
        "size": "{product} কোন কোন সাইজে পাওয়া যায়?", "material": "{product} কী দিয়ে তৈরি?",
        "stock": "{product} কি স্টকে আছে?", "warranty": "{product}-এর ওয়ারেন্টি কত দিন?",
        "care": "{product} কীভাবে যত্ন নেব?", "weight": "{product}-এর ওজন কত?", "dimensions": "{product}-এর মাপ কত?",
        "width": "{product} কতটা চওড়া?", "height": "{product} কতটা উঁচু?", "depth": "{product} কতটা গভীর?",
        "length": "{product} কতটা লম্বা?", "delivery": "{product} কত দিনে পৌঁছাবে?",
        "category": "{product} কোন ক্যাটাগরিতে?", "description": "{product} কী?", "brand": "{product}-এর ব্র্যান্ড কী?",
    },
    count="{product} কয়টা স্টকে আছে?",
    returns={"exchange": "{product} কি বদলানো যাবে?", "refund": "{product}-এর টাকা কি ফেরত পাওয়া যাবে?",
             "return": "{product} কি ফেরত দেওয়া যাবে?"},
    other="{column}: {product}?",
    in_unit=", {unit}-এ?",
    units=_units("মিলিমিটার, সেন্টিমিটার, মিটার, ইঞ্চি, ফুট, গ্রাম, কেজি, পাউন্ড, আউন্স, লিটার, মিলিলিটার"),
)

GEORGIAN = Wording(
    asks={
        "price": "რა ღირს {product}?", "colour": "რა ფერებშია {product}?", "size": "რა ზომებშია {product}?",
        "material": "რისგან არის დამზადებული {product}?", "stock": "მარაგშია {product}?",
        "warranty": "რა გარანტია აქვს: {product}?", "care": "როგორ მოვუარო: {product}?", "weight": "რამდენს იწონის {product}?",
        "dimensions": "რა ზომისაა {product}?", "width": "რა სიგანისაა {product}?", "height": "რა სიმაღლისაა {product}?",
        "depth": "რა სიღრმისაა {product}?", "length": "რა სიგრძისაა {product}?",
        "delivery": "რამდენ დღეში მოვა {product}?", "category": "რომელ კატეგორიაშია {product}?",
        "description": "რა არის {product}?", "brand": "რა ბრენდია {product}?",
    },
    count="რამდენი ცალია მარაგში: {product}?",
    returns={"exchange": "შეიძლება გადაცვლა: {product}?", "refund": "თანხას დამიბრუნებთ: {product}?",
             "return": "შეიძლება დაბრუნება: {product}?"},
    other="{column}: {product}?",
    in_unit=", {unit}?",
    units=_units("მილიმეტრებში, სანტიმეტრებში, მეტრებში, დუიმებში, ფუტებში, გრამებში, კილოგრამებში, ფუნტებში, "
                 "უნციებში, ლიტრებში, მილილიტრებში"),
)

BLIND45_WORDINGS = {"et": ESTONIAN, "lv": LATVIAN, "mk": MACEDONIAN, "bn": BENGALI, "ka": GEORGIAN}
