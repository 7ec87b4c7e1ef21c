#!/usr/bin/env python3
"""Generates pii_heldout.jsonl: synthetic prompts with valid PII values
(Luhn, mod-97, SSN ranges) in varied sentences, plus near-miss negatives.
Deterministic (fixed seed). Run from this directory: python3 gen_pii.py"""
import json, random

rnd = random.Random(20261129)
rows = []

def add(prompt, pii):
    rows.append({"prompt": prompt, "pii": sorted(set(pii))})

def luhn_complete(prefix, length):
    digits = [int(c) for c in prefix]
    while len(digits) < length - 1:
        digits.append(rnd.randrange(10))
    for check in range(10):
        ds = digits + [check]
        s = 0
        for i, d in enumerate(reversed(ds)):
            if i % 2 == 1:
                d *= 2
                if d > 9: d -= 9
            s += d
        if s % 10 == 0:
            return "".join(map(str, ds))

def card():
    kind = rnd.choice(["visa", "mc", "mc2", "amex", "disc"])
    if kind == "visa": n = luhn_complete("4" + str(rnd.randrange(100, 999)), 16)
    elif kind == "mc": n = luhn_complete(str(rnd.randrange(51, 56)), 16)
    elif kind == "mc2": n = luhn_complete(str(rnd.randrange(2221, 2721)), 16)
    elif kind == "amex": n = luhn_complete(rnd.choice(["34", "37"]), 15)
    else: n = luhn_complete("6011", 16)
    sep = rnd.choice([" ", "-", ""])
    if len(n) == 15:
        return sep.join([n[:4], n[4:10], n[10:]])
    return sep.join([n[i:i+4] for i in range(0, 16, 4)])

def bad_card():
    n = card().replace(" ", "").replace("-", "")
    last = (int(n[-1]) + rnd.randrange(1, 10)) % 10
    return n[:-1] + str(last)

def ssn():
    while True:
        a = rnd.randrange(1, 900)
        if a != 666: break
    return f"{a:03d}-{rnd.randrange(1,100):02d}-{rnd.randrange(1,10000):04d}"

IBAN_FMT = {"DE": (22, "n"), "GB": (22, "gb"), "FR": (27, "n"), "ES": (24, "n"), "IT": (27, "it"), "NL": (18, "nl"), "CH": (21, "n"), "BE": (16, "n")}

def iban_check(country, bban):
    s = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in s)
    return 98 - int(num) % 97

def iban(spaced=True):
    c = rnd.choice(list(IBAN_FMT))
    length, kind = IBAN_FMT[c]
    n = length - 4
    if kind == "gb": bban = "".join(rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4)) + "".join(str(rnd.randrange(10)) for _ in range(n - 4))
    elif kind == "nl": bban = "".join(rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4)) + "".join(str(rnd.randrange(10)) for _ in range(n - 4))
    elif kind == "it": bban = rnd.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + "".join(str(rnd.randrange(10)) for _ in range(n - 1))
    else: bban = "".join(str(rnd.randrange(10)) for _ in range(n))
    code = f"{c}{iban_check(c, bban):02d}{bban}"
    if spaced:
        return " ".join(code[i:i+4] for i in range(0, len(code), 4))
    return code

def bad_iban():
    code = iban(False)
    chk = int(code[2:4])
    return code[:2] + f"{(chk + 1) % 100:02d}" + code[4:]

def ipv4():
    return ".".join(str(rnd.randrange(1, 255)) for _ in range(4))

def ipv6():
    groups = [f"{rnd.randrange(0, 65536):x}" for _ in range(8)]
    if rnd.random() < 0.5:
        return "2001:db8::" + ":".join(groups[:2])
    return ":".join(groups)

def phone():
    a, e, l = rnd.randrange(201, 990), rnd.randrange(200, 999), rnd.randrange(0, 10000)
    return rnd.choice([
        f"({a}) {e}-{l:04d}", f"{a}-{e}-{l:04d}", f"{a}.{e}.{l:04d}", f"+1 {a} {e} {l:04d}", f"1-{a}-{e}-{l:04d}",
        f"+44 20 7946 {rnd.randrange(0,10000):04d}", f"+49 30 {rnd.randrange(1000000, 99999999)}",
        f"+33 1 {rnd.randrange(10,99)} {rnd.randrange(10,99)} {rnd.randrange(10,99)} {rnd.randrange(10,99)}",
        f"+81 3-{rnd.randrange(1000,9999)}-{rnd.randrange(1000,9999)}", f"+34 912 {rnd.randrange(100,999)} {rnd.randrange(100,999)}",
        f"+91 98{rnd.randrange(10000000, 99999999)}"])

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
def rs(n, alphabet=ALNUM): return "".join(rnd.choice(alphabet) for _ in range(n))

def api_key():
    return rnd.choice([
        "sk-" + rs(40), "sk-proj-" + rs(48), "sk-ant-api03-" + rs(40),
        "AKIA" + rs(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "ghp_" + rs(36), "xoxb-" + rs(11, "0123456789") + "-" + rs(24),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + rs(43), "AIza" + rs(35), "sk_live_" + rs(24)])

FIRST = ["Olivia", "Mateo", "Aiko", "Priya", "Lars", "Fatima", "Chen", "Sofia", "Kwame", "Elena", "Jonas", "Amara", "Diego", "Hannah", "Ravi", "Yuki", "Nadia", "Thomas", "Lucia", "Omar", "Greta", "Ibrahim", "Claire", "Marek", "Zainab"]
LAST = ["Hansen", "Okafor", "Tanaka", "Sharma", "Lindqvist", "Haddad", "Moreau", "Kowalski", "Rossi", "Nakamura", "Fischer", "Mensah", "Alvarez", "Petrov", "O'Connor", "Dubois", "Varga", "Castillo", "Eriksen", "Abiodun"]
def name(): return f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
def email(n=None):
    n = n or name()
    first, last = n.lower().replace("'", "").split()
    return rnd.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}{rnd.randrange(10,99)}"]) + "@" + rnd.choice(["example.com", "mail.example.org", "acme.co.uk", "uni-example.de", "example.net"])

STREETS = ["Maple", "Oak Ridge", "Lincoln", "Harbor View", "Sycamore", "Willow Creek", "Elm", "Juniper", "Cedar Hollow", "Main"]
SUFFIX = ["Street", "St.", "Avenue", "Ave", "Road", "Rd", "Lane", "Drive", "Court", "Boulevard", "Way", "Place", "Terrace"]
CITIES = [("Springfield", "IL"), ("Austin", "TX"), ("Portland", "OR"), ("Columbus", "OH"), ("Madison", "WI"), ("Raleigh", "NC")]
def address():
    k = rnd.random()
    if k < 0.55:
        city, st = rnd.choice(CITIES)
        base = f"{rnd.randrange(1, 9999)} {rnd.choice(STREETS)} {rnd.choice(SUFFIX)}"
        tail = rnd.choice(["", f", Apt {rnd.randrange(1,40)}", f", {city}, {st} {rnd.randrange(10000, 99999)}", f", Suite {rnd.randrange(100,999)}, {city}, {st} {rnd.randrange(10000,99999)}"])
        return base + tail
    if k < 0.7:
        return f"{rnd.randrange(1, 200)} {rnd.choice(['Kingsley', 'Abbey', 'Queens', 'Victoria'])} {rnd.choice(['Road', 'Close', 'Gardens', 'Crescent'])}, {rnd.choice(['Leeds', 'Bristol', 'Oxford'])} {rnd.choice(['LS6 2AB', 'BS8 1TH', 'OX1 3QD'])}"
    if k < 0.8:
        return f"{rnd.choice(['Lindenstraße', 'Bahnhofstraße', 'Gartenweg', 'Schillerplatz'])} {rnd.randrange(1, 150)}, {rnd.randrange(10000, 99999)} {rnd.choice(['Berlin', 'Köln', 'Hamburg'])}"
    if k < 0.9:
        return f"{rnd.randrange(1, 120)} rue {rnd.choice(['de la Paix', 'Victor Hugo', 'des Lilas', 'du Moulin'])}"
    return f"P.O. Box {rnd.randrange(10, 99999)}"

POS = [
    ("email", lambda: email(), ["Please forward the invoice to {}.", "My email is {} if you need more details.", "Can you check why mail to {} keeps bouncing?", "Send the meeting notes to {} by Friday.", "Reply-to address: {}"]),
    ("phone", phone, ["Call me back at {} after 5pm.", "The clinic's number is {}, can you draft a message asking to reschedule?", "You can reach the landlord on {}.", "Text {} when the delivery arrives.", "Update my contact number to {} please."]),
    ("credit_card", card, ["My card number is {} and it was charged twice.", "Is {} a Visa or a Mastercard?", "Please cancel the subscription on card {}.", "The payment with {} failed, why?", "Card: {} exp 09/27"]),
    ("ssn", ssn, ["My SSN is {}, do I need it for this tax form?", "Fill in the W-4 with social security number {}.", "The applicant's SSN: {}.", "Is it safe to email {} to my accountant?", "Employee record: SSN {}, hired 2021."]),
    ("iban", lambda: iban(rnd.random() < 0.7), ["Please wire the deposit to IBAN {}.", "My account is {}; can you write a payment reminder?", "Transfer 250 EUR to {} by Monday.", "Is {} a valid German IBAN?", "Bank details: {} (Sparkasse)."]),
    ("ip_address", lambda: ipv4() if rnd.random() < 0.6 else ipv6(), ["Our server at {} is not responding to pings.", "Block traffic from {} in the firewall.", "Why does {} show up in my auth logs?", "Set the DNS record to point to {}.", "The printer got the address {} from DHCP."]),
    ("api_key", api_key, ["My key {} stopped working, why?", "I accidentally committed {} to GitHub, what now?", "export OPENAI_API_KEY={}", "Use this token: {} for the deploy script.", "Here is the credential {} - is it still valid?"]),
    ("person_name", name, ["My name is {} and I'd like to book a table.", "Please draft a thank-you note to {} for the interview.", "Dr. {} will see the patient tomorrow.", "Write a reference letter for {}, who worked with us for three years.", "Remind {} about the dentist appointment.", "Name: {}\nPosition: analyst", "Can you summarize this complaint from customer {}?"]),
    ("street_address", address, ["Ship the package to {}.", "I live at {}, which bus line is closest?", "Our new office is at {}.", "Please update my billing address to {}.", "Is there parking near {}?"]),
]
for _ in range(40):
    for typ, gen, templates in POS:
        add(rnd.choice(templates).format(gen()), [typ])
# Combinations.
for _ in range(40):
    n = name()
    add(f"Hi, I'm {n}. My email is {email(n)} and my phone is {phone()}.", ["person_name", "email", "phone"])
for _ in range(20):
    add(f"Please send the contract to {name()} at {address()} and charge card {card()}.", ["person_name", "street_address", "credit_card"])

# Near misses: prompts without PII.
NEG = [
    lambda: f"Order #{rnd.randrange(10**11, 10**12)} hasn't shipped yet, what should I do?",
    lambda: f"Tracking number {bad_card()} shows no updates.",
    lambda: f"Is 000-{rnd.randrange(10,99)}-{rnd.randrange(1000,9999)} a valid SSN format?",
    lambda: f"Why is 666-{rnd.randrange(10,99)}-{rnd.randrange(1000,9999)} never issued as an SSN?",
    lambda: f"My IBAN {bad_iban()} is rejected, is the checksum wrong?",
    lambda: f"Upgrade from version {rnd.randrange(1,9)}.{rnd.randrange(0,20)}.{rnd.randrange(0,20)} to the latest release.",
    lambda: f"Is 999.{rnd.randrange(1,255)}.{rnd.randrange(1,255)}.{rnd.randrange(1,255)} a valid IP address?",
    lambda: f"The meeting is on 2025-{rnd.randrange(1,12):02d}-{rnd.randrange(1,28):02d} at {rnd.randrange(8,18)}:30.",
    lambda: f"Commit {rs(40, '0123456789abcdef')} broke the build; how do I revert it?",
    lambda: f"What does the UUID {rs(8,'0123456789abcdef')}-{rs(4,'0123456789abcdef')}-4{rs(3,'0123456789abcdef')}-a{rs(3,'0123456789abcdef')}-{rs(12,'0123456789abcdef')} identify?",
    lambda: "Explain Newton's laws of motion with examples.",
    lambda: "What is the history of Paris during the Middle Ages?",
    lambda: "How does Einstein's theory of relativity explain GPS time corrections?",
    lambda: "Compare Washington and Oregon for a hiking trip.",
    lambda: "What did Darwin observe on the Galapagos Islands?",
    lambda: "Is Bayes' theorem useful for spam filters?",
    lambda: "Summarize the plot of Pride and Prejudice.",
    lambda: "How do I set an environment variable for my API key in bash without hard-coding it?",
    lambda: "What does the error code 0x80070005 mean in Windows?",
    lambda: f"Calculate 15% of {rnd.randrange(1000, 99999)} dollars.",
    lambda: "How long does it take to drive from Boston to New York?",
    lambda: "The function returns -1 when the index is out of range; why?",
    lambda: f"Convert {rnd.randrange(100, 999)}-{rnd.randrange(100, 999)} to a fraction.",
    lambda: "What is the capital of Australia and how big is Sydney?",
    lambda: "Explain the Monty Hall problem.",
    lambda: "How does the Turing test work?",
    lambda: "Which is better for beginners, Python or JavaScript?",
    lambda: f"My flight leaves at {rnd.randrange(1,12)}:{rnd.randrange(10,59)} from gate B{rnd.randrange(1,40)}.",
    lambda: "What is the population of Brazil in 2023?",
    lambda: "Who painted the Mona Lisa, and where is it displayed?",
    lambda: "Tell me about the Roman Empire under Augustus.",
    lambda: "How do I reset a forgotten password on my router?",
    lambda: f"Room {rnd.randrange(100, 999)} on floor {rnd.randrange(2, 30)} has a broken heater.",
    lambda: "What are the main ideas of Keynes and Hayek?",
    lambda: "How to say 'good morning' in Japanese?",
]
for _ in range(6):
    for g in NEG:
        add(g(), [])

with open("pii_heldout.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(len(rows))
