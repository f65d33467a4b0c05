/** Antibacterials, antifungals, antivirals, antiparasitics, antimalarials and tuberculosis. Row format: ../formulary.ts. */
export const INFECTIONS = `
amoxicillin||amox|capsule,tablet,suspension,drops|125,250,500,875,125mg/5ml,250mg/5ml,400mg/5ml|mox,novamox,cipmox,moxikind,amoxil
amoxicillin + clavulanic acid|amoxicillin + clavulanate|amoxicillin clavulanate,amoxicillin and clavulanate,amoxicillin clavulanic acid,amoxicillin and clavulanic acid,amoxicillin with clavulanic acid,amoxicillin with clavulanate,co amoxiclav,coamoxiclav,amoxiclav|tablet,suspension,drops,injection|375,625,875,1000,228.5mg/5ml,457mg/5ml|augmentin,augmentin duo,augmentin duo ds,augmentin es,moxclav,clavam,moxikind cv,amoxyclav,~advent
amoxicillin + cloxacillin|||capsule||novaclox
ampicillin|||capsule,injection|250,500|
ampicillin + cloxacillin|||capsule||
cloxacillin|||capsule|250,500|
flucloxacillin|||capsule|250,500|
dicloxacillin|||capsule|250,500|
phenoxymethylpenicillin||penicillin v,penicillin vk|tablet|250,500|
benzathine penicillin||benzathine benzylpenicillin|injection||pencom,bicillin l a
cefixime|||tablet,suspension,dry syrup|50,100,200,400,50mg/5ml,100mg/5ml|taxim o,zifi,mahacef,suprax
cefixime + ofloxacin|||tablet||
cefixime + clavulanic acid|||tablet||
cefpodoxime|||tablet,suspension|100,200,50mg/5ml|cepodem,monocef o,vantin
cefpodoxime + clavulanic acid|||tablet||cepodem xp
cefuroxime||cefuroxime axetil|tablet,injection|125,250,500,750|ceftum,zinacef,cefakind,ceftin
cefuroxime + clavulanic acid|||tablet||
cefadroxil|||tablet,capsule,suspension|500,1000|droxyl,duricef
cephalexin|cephalexin|cefalexin|capsule,tablet,suspension|250,500,125mg/5ml|sporidex,phexin,keflex
cefdinir|||capsule,suspension|300,125mg/5ml,250mg/5ml|omnicef
cefaclor|||capsule|250,500|
cefprozil|||tablet|250,500|
ceftriaxone|||injection|250,500,1000,2000|monocef,intacef,oframax,rocephin
ceftriaxone + sulbactam|||injection||
cefotaxime|||injection|500,1000|taxim,claforan
ceftazidime|||injection|1000|fortum,fortaz
cefepime|||injection|1000|maxipime
cefazolin|||injection|1000|
cefoperazone + sulbactam||cefoperazone sulbactam|injection||magnex
piperacillin + tazobactam||piperacillin tazobactam,pip taz,piperacillin and tazobactam|injection|4500|zosyn
meropenem|||injection|500,1000|meronem,merrem
amikacin|||injection|100,250,500|
gentamicin|||injection,eye drops,cream|80,0.3%,0.1%|genticyn,garamycin
tobramycin|||eye drops,eye ointment,injection|0.3%|tobrex
vancomycin|||injection,capsule|500,1000,125|vancocin
azithromycin|||tablet,suspension,injection|100,250,500,100mg/5ml,200mg/5ml|azee,azithral,azax,zithromax,z pak,zpack,azicip
clarithromycin|||tablet|250,500|claribid,biaxin
erythromycin|||tablet,gel,eye ointment|250,500,2%,0.5%|althrocin,erythrocin,ery tab
roxithromycin|||tablet|50,150,300|roxid
doxycycline|||capsule,tablet|100|doxy 1,doxt,doxt sl,microdox,vibramycin,doryx,doxy 1 ldr
minocycline|||capsule,tablet|50,100|minoz,cnn,minocin,solodyn
tetracycline|||capsule|250,500|
ciprofloxacin|||tablet,eye drops,ear drops,eye ointment|250,500,750,0.3%|ciplox,cifran,ciprobid,cipro,ciloxan
ofloxacin|||tablet,suspension,eye drops,ear drops|100,200,400,0.3%,50mg/5ml|oflox,zanocin,zenflox,exocin,ocuflox
levofloxacin|||tablet,eye drops|250,500,750,0.5%|levoflox,glevo,loxof,levaquin,tavanic
moxifloxacin|||tablet,eye drops|400,0.5%|avelox,vigamox,moxicip,milflox,moxeza
gatifloxacin|||eye drops|0.3%,0.5%|zymar,zymaxid
norfloxacin|||tablet|400|norflox
ofloxacin + ornidazole|||tablet,suspension||o2,oflox oz,zenflox oz
norfloxacin + tinidazole|||tablet||norflox tz
ciprofloxacin + tinidazole|||tablet||cifran ct
ciprofloxacin + dexamethasone|||eye drops,ear drops||ciplox d,ciprodex
ciprofloxacin + hydrocortisone|||ear drops||cipro hc
moxifloxacin + dexamethasone|||eye drops||
tobramycin + dexamethasone|||eye drops,eye ointment||tobradex
neomycin + polymyxin b + hydrocortisone|||ear drops,eye drops||cortisporin
chloramphenicol|||eye drops,eye ointment,capsule|0.5%,1%|chloromycetin
fusidic acid|||cream,eye drops|2%,1%|fucidin,fusiderm,fucithalmic
metronidazole|||tablet,suspension,gel,injection|200,400,500,0.75%,1%,200mg/5ml|flagyl,metrogyl,metrogel,rozex,metrocream
tinidazole|||tablet|300,500,1000|tiniba,fasigyn,tindamax
ornidazole|||tablet|500|dazolic
secnidazole|||tablet,sachet|1000,2000|secnil,solosec
nitazoxanide|||tablet,suspension|200,500,100mg/5ml|alinia,nizonide
nitrofurantoin|||capsule,tablet|50,100|niftran,martifur,macrobid,macrodantin
fosfomycin|||sachet|3g|monurol
sulfamethoxazole + trimethoprim||co trimoxazole,cotrimoxazole,trimethoprim sulfamethoxazole,tmp smx|tablet,suspension|480,960|septran,bactrim,bactrim ds,septra,ciplin
trimethoprim|||tablet|100,200|
linezolid|||tablet,injection|600|lizolid,linospan,zyvox
rifaximin|||tablet|200,400,550|rifagut,xifaxan
clindamycin||clindamycin gel|capsule,gel,lotion,injection|150,300,1%|dalacin c,cleocin,cleocin t,clindac a
mupirocin|||ointment,cream|2%|t bact,bactroban,mupinase
framycetin|||cream|1%|soframycin
neomycin|||cream,tablet|0.5%|
polymyxin b|||injection||
bacitracin|||ointment||
neomycin + polymyxin b + bacitracin|||ointment||neosporin
silver sulfadiazine|||cream|1%|silverex,silvadene
nadifloxacin|||cream|1%|nadoxin
retapamulin|||ointment|1%|altabax
fluconazole|||tablet,capsule,suspension|50,100,150,200,400|forcan,zocon,flucos,diflucan
itraconazole|||capsule|100,130,200|itaspor,canditral,sporanox
voriconazole|||tablet|200|vfend
posaconazole|||tablet|100|noxafil
terbinafine|||tablet,cream|250,1%|terbicip,sebifin,lamisil
griseofulvin|||tablet|125,250,500|grisovin
clotrimazole|||cream,vaginal pessary,vaginal tablet,mouth paint,powder,dusting powder,ear drops,lozenge|1%,2%,100,200,500,10|candid,candid powder,candid mouth paint,canesten,clocip,lotrimin,abzorb,mycelex
clotrimazole + beclomethasone|||cream||candid b
clotrimazole + betamethasone|||cream||lotrisone
clotrimazole + lignocaine|||ear drops||candid ear drops
luliconazole|||cream,lotion|1%|lulifin,luliford,lulibet,luzu
ketoconazole|||shampoo,cream,soap,lotion,tablet|2%,200|nizral,ketostar,kz
miconazole|||cream,gel,oral gel|2%|daktarin,zole
miconazole + fluocinolone|||cream||zole f
sertaconazole|||cream|2%|onabet,ertaczo
eberconazole|||cream|1%|ebernet
econazole|||cream|1%|
oxiconazole|||cream|1%|oxistat
efinaconazole|||nail solution|10%|jublia
ciclopirox|||cream,nail lacquer|1%,8%|penlac,loprox
tolnaftate|||cream,powder|1%|tinactin
amorolfine|||cream,nail lacquer|0.25%,5%|loceryl
nystatin|||suspension,cream,tablet|100000IU,100000IU/ml,100000IU/g|mycostatin,nystat
permethrin|||cream,lotion|5%,1%|permite,scabper,perlice,elimite,nix
crotamiton|||cream,lotion|10%|crotorax,eurax
ivermectin|||tablet,lotion,cream|3,6,12,0.5%,1%|ivecop,scabo,stromectol,soolantra,sklice
albendazole|||tablet,chewable tablet,suspension|200,400,200mg/5ml|zentel,~bandy,albenza
mebendazole|||tablet,chewable tablet,suspension|100,500|mebex,vermox,emverm
pyrantel pamoate|||suspension,tablet|250|nemocid,combantrin
praziquantel|||tablet|600|biltricide
acyclovir|acyclovir|aciclovir|tablet,cream,eye ointment,injection|200,400,800,5%,3%|acivir,herpex,ocuvir,zovirax
valacyclovir|valacyclovir|valaciclovir|tablet|500,1000|valcivir,valtrex
famciclovir|||tablet|250,500|famtrex,famvir
oseltamivir|||capsule,suspension|30,45,75,6mg/ml|fluvir,antiflu,tamiflu
baloxavir|||tablet|40,80|xofluza
ganciclovir|||eye gel|0.15%|zirgan
tenofovir||tenofovir disoproxil fumarate,tdf|tablet|300|viread,tenvir
tenofovir alafenamide|||tablet|25|vemlidy
entecavir|||tablet|0.5,1|baraclude
nirmatrelvir + ritonavir|||tablet||paxlovid
ritonavir|||tablet|100|norvir
nirmatrelvir|||tablet|150|
chloroquine|||tablet|250,500|lariago,resochin
artemether + lumefantrine|||tablet|80,480|lumerax,coartem
artemether|||injection||
lumefantrine|||tablet||
artesunate|||tablet,injection|50,60|falcigo
mefloquine|||tablet|250|
atovaquone + proguanil|||tablet||malarone
atovaquone|||suspension||mepron
proguanil|||tablet|100|
primaquine|||tablet|7.5,15|
rifampicin|rifampin||capsule,tablet|150,300,450,600|rifadin,r cin
isoniazid|||tablet|100,300|isokin
pyrazinamide|||tablet|500,750|
ethambutol|||tablet|400,800|combutol
rifampicin + isoniazid|||tablet||r cinex,rifinah
rifampicin + isoniazid + pyrazinamide + ethambutol||akt 4,fdc 4,hrze|tablet||forecox
clavulanic acid||clavulanate|tablet||
sulbactam|||injection||
tazobactam|||injection||
cefoperazone|||injection|1000|
piperacillin|||injection||
sulfamethoxazole|||tablet||
`;
