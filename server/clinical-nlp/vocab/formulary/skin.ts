/** Dermatology: topical steroids, acne, psoriasis, eczema, pigment, hair, emollients and antiseptics. Row format: ../formulary.ts. */
export const SKIN = `
clobetasol propionate||clobetasol|cream,ointment,lotion,shampoo|0.05%|tenovate,lobate,dermovate,clop,temovate,clobex
clobetasol + salicylic acid|||ointment,lotion||
clobetasol + neomycin + miconazole|||cream||
betamethasone valerate|||cream,ointment,lotion|0.1%,0.05%|betnovate,valisone
betamethasone dipropionate|||cream,ointment,lotion|0.05%|diprosone,diprolene
betamethasone valerate + neomycin|||cream||betnovate n
betamethasone valerate + fusidic acid|||cream||fucibet
calcipotriol|calcipotriene||ointment,cream,scalp solution|0.005%|daivonex,dovonex,sorilux
calcipotriol + betamethasone dipropionate|calcipotriene + betamethasone dipropionate||ointment,gel,foam||daivobet,taclonex,enstilar
hydrocortisone butyrate|||cream,lotion|0.1%|locoid
hydrocortisone acetate|||cream,ointment|1%,2.5%|
hydrocortisone + fusidic acid|||cream||fucidin h
fluocinolone|||cream,ointment,oil|0.01%,0.025%|flucort,synalar
fluocinolone + hydroquinone + tretinoin|||cream||tri luma
mometasone + hydroquinone + tretinoin|||cream||
desonide|||cream,lotion|0.05%|desowen
halobetasol|||cream,ointment|0.05%|ultravate
desoximetasone|||cream,ointment|0.05%,0.25%|topicort
triamcinolone|||injection,cream,ointment,dental paste|10,40,0.1%,40mg/ml|kenacort,kenalog
tacrolimus|||ointment,capsule|0.03%,0.1%,0.5,1,5|tacroz,protopic,prograf
pimecrolimus|||cream|1%|elidel
crisaborole|||ointment|2%|eucrisa
calamine|||lotion||lacto calamine,caladryl
liquid paraffin|||lotion,emulsion,oil||
white soft paraffin||petroleum jelly,white petrolatum|ointment||vaseline
emollient||moisturiser,moisturizer,moisturising cream,moisturizing cream|cream,lotion||cetaphil,cetaphil moisturising lotion,venusia,physiogel,cerave,eucerin
coal tar|||shampoo,ointment,solution|1%,2%,4%|
salicylic acid|||ointment,gel,face wash,shampoo,solution|2%,3%,6%,12%,17%|
urea|||cream,lotion|10%,20%,40%|
benzoyl peroxide|||gel,face wash,cream|2.5%,4%,5%,10%|persol,benzac
adapalene|||gel,cream|0.1%,0.3%|adaferin,deriva,differin
adapalene + clindamycin|||gel||deriva cms,adaferin c
adapalene + benzoyl peroxide|||gel||epiduo
tretinoin|||cream,gel|0.025%,0.05%,0.1%|retino a,retin a,a ret
isotretinoin|||capsule|5,10,20,30,40|isotroin,sotret,accutane,absorica,claravis
azelaic acid|||cream,gel|10%,15%,20%|aziderm,finacea
dapsone|||tablet,gel|25,50,100,5%,7.5%|aczone
clindamycin + nicotinamide|||gel||
erythromycin + benzoyl peroxide|||gel||benzamycin
hydroquinone|||cream|2%,4%|melalite,eukroma
kojic acid|||cream|1%,2%|
minoxidil|||solution,foam,tablet|2%,5%,2.5,5,10|mintop,tugain,rogaine,loniten
finasteride|||tablet|1,5|finpecia,finast,proscar,propecia,fincar
biotin|||tablet|5,10|
ketoconazole + zinc pyrithione|||shampoo||
zinc pyrithione|||shampoo|1%|
selenium sulfide|selenium sulfide|selenium sulphide|shampoo,lotion|1%,2.5%|selsun,selsun blue
imiquimod|||cream|5%|aldara
podophyllin|||solution|20%|
methoxsalen|||tablet,lotion|10,1%|
silver nitrate|||stick||
benzyl benzoate|||lotion|25%|ascabiol
lignocaine|lidocaine|lignocaine hydrochloride,lidocaine hydrochloride,viscous lidocaine,viscous lignocaine|gel,jelly,injection,patch,spray,ointment,cream|1%,2%,4%,5%,10%|xylocaine,lidoderm,lox
lignocaine + hydrocortisone + zinc oxide|||ointment||
phenylephrine + lignocaine + beclomethasone|||cream||anovate
mupirocin + betamethasone|||cream||
nicotinamide||niacinamide|gel,tablet|4%,250,500|
zinc oxide|||cream,ointment,paste|10%,20%,40%|desitin
`;
