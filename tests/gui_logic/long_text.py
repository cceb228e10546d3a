"""Sentences for the tests of a sentence too long for the signature (over 35 terms) that both
documents hold word for word (Qt-free, so the headless lane can import it): four short sentences
copied word for word (a kept piece), three long ones to put before, inside and after it, and two
different endings."""

#: four sentences copied word for word (the kept piece)
S0 = "Photosynthesis converts light energy into chemical energy stored in glucose. "
S1 = "Chlorophyll absorbs mostly red and blue light from the sun. "
S2 = "Oxygen is released as a by-product of splitting water molecules. "
S3 = "Plants grow towards windows when kept indoors for several weeks. "
#: sentences of more than 35 terms: the signature leaves them out
BEFORE = (
    "Gardeners record rainfall, soil temperature, leaf colour, stem height, flowering dates, "
    "pollinator visits, aphid counts, fungal spots, frost damage, seed weight, germination "
    "rates, root depth, compost moisture, mulch thickness, pruning cuts, graft unions, bud "
    "break, fruit set, harvest dates and storage losses in weatherproof notebooks. "
)
INSIDE = (
    "Libraries lend books, host reading groups, teach children letters, offer warm rooms in "
    "winter, print forms for job seekers, keep local newspapers, lend laptops and hotspots, "
    "run language courses, archive parish records, host citizenship classes, display student "
    "paintings, repair bicycles on Saturdays, and still find time to answer every strange "
    "question patrons bring. "
)
AFTER = (
    "Museums restore paintings, catalogue fossils, digitise letters, train volunteers, "
    "repair clocks, mount travelling exhibitions, lend costumes to schools, publish research "
    "papers, guard fragile tapestries, photograph coins, conserve maps, measure humidity, "
    "sample pigments, rehouse insects, label minerals, and welcome curious visitors from "
    "every corner of distant countries. "
)
END_A = "Cats sleep all day long in warm sunny corners of old houses. "
END_B = "Dogs bark at every passing car on quiet country lanes today. "
