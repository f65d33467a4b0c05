/**
 * Outpatient formulary: generic names (INN, as Indian prescriptions write them), the US name where it differs,
 * other spellings, usual forms and strengths, and Indian and US brand names. Curated by hand for this project.
 *
 * One drug a line: name | US name | other names | forms | usual strengths (mg unless a unit is given) | brands
 */
const TABLE = `
paracetamol|acetaminophen|pcm|tablet,syrup,suspension,drops,injection|125,250,500,650,1000|crocin,dolo,calpol,pacimol,metacin,p 500,febrinil,tylenol,panadol
ibuprofen|||tablet,suspension|200,400,600,800|brufen,ibugesic,advil,motrin
ibuprofen + paracetamol|ibuprofen + acetaminophen||tablet,suspension|400|combiflam,ibugesic plus
aceclofenac|||tablet|100,200|hifenac,zerodol,aceclo,dolokind
aceclofenac + paracetamol|aceclofenac + acetaminophen||tablet||zerodol p,hifenac p,aceclo plus,dolokind plus
aceclofenac + paracetamol + serratiopeptidase|||tablet||zerodol sp,hifenac sp
diclofenac|||tablet,gel,injection|50,75,100|voveran,voltaren,dynapar,reactin
diclofenac + paracetamol|||tablet||diclomol
etodolac|||tablet|300,400,600|etova,etodin,lodine
naproxen|||tablet|250,500|naprosyn,aleve,naxdom
mefenamic acid|||tablet,suspension|250,500|meftal,ponstan
mefenamic acid + dicyclomine|||tablet||meftal spas,cyclopam m
nimesulide|||tablet|100|nise,nimulid
ketorolac|||tablet,injection|10|ketorol,toradol
etoricoxib|||tablet|60,90,120|etoshine,nucoxia,arcoxia
celecoxib|||capsule|100,200|celebrex,colcibra
meloxicam|||tablet|7.5,15|mobic,muvera
piroxicam|||capsule,gel|20|dolonex,feldene
tramadol|||capsule,tablet|50,100|tramazac,contramal,ultram
tramadol + paracetamol|tramadol + acetaminophen||tablet||ultracet,acuvin,tramacip p
tapentadol|||tablet|50,100|tapal,tydol,nucynta
thiocolchicoside|||tablet,capsule|4,8|myoril,thiocol,muscoril
chlorzoxazone + paracetamol|||tablet||parafon,myospaz
cyclobenzaprine|||tablet|5,10|flexeril
methocarbamol|||tablet|500,750|robaxin
tizanidine|||tablet|2,4|tizan,sirdalud,zanaflex
pregabalin|||capsule|50,75,150|pregaba,lyrica,pregalin
pregabalin + methylcobalamin|||capsule||pregaba m,nurokind p
gabapentin|||tablet,capsule|100,300,400|gabapin,gabantin,neurontin
methylcobalamin|||tablet,injection|500,1500|mecobal,methycobal,nurokind,cobadex cz
amitriptyline|||tablet|10,25|tryptomer,amitone,elavil
nortriptyline|||tablet|10,25|sensival,nortin,pamelor
duloxetine|||capsule|20,30,60|duzela,dulane,cymbalta
cefixime|||tablet,suspension|100,200,400|taxim o,zifi,cefix,mahacef,cefi,suprax
cefpodoxime|||tablet,suspension|100,200|cepodem,monocef o,cefoprox,vantin
cefuroxime|||tablet|250,500|ceftum,zinacef,cefakind,ceftin
cefadroxil|||tablet,capsule|500|droxyl,cefadrox,duricef
cephalexin|cephalexin|cefalexin|capsule,tablet,suspension|250,500|sporidex,phexin,keflex
ceftriaxone|||injection|250,500,1000|monocef,intacef,oframax,rocephin
amoxicillin|||capsule,tablet,suspension|250,500|mox,novamox,amox,cipmox,moxikind,amoxil
amoxicillin + clavulanic acid||amoxicillin clavulanate,amoxicillin and clavulanate,amoxicillin clavulanic acid,co amoxiclav,amoxiclav|tablet,suspension|375,625,875,1000|augmentin,moxclav,clavam,amoxyclav,moxikind cv
azithromycin|||tablet,suspension|250,500|azee,azithral,azax,zithromax,z pak,zpack
clarithromycin|||tablet|250,500|claribid,biaxin
erythromycin|||tablet|250,500|althrocin,erythrocin
doxycycline|||capsule,tablet|100|doxy 1,doxt,microdox,vibramycin
minocycline|||capsule|50,100|minoz,cnn,minocin
ciprofloxacin|||tablet|250,500,750|ciplox,cifran,ciprobid,cipro
ofloxacin|||tablet|200,400|oflox,zanocin,zenflox
levofloxacin|||tablet|250,500,750|levoflox,glevo,loxof,levaquin
moxifloxacin|||tablet,eye drops|400|moxif,avelox,vigamox
norfloxacin|||tablet|400|norflox,uroflox
ofloxacin + ornidazole|||tablet||o2,oflox oz,zenflox oz
norfloxacin + tinidazole|||tablet||norflox tz,nor tz
metronidazole|||tablet,suspension,gel|200,400|flagyl,metrogyl,metron
tinidazole|||tablet|300,500|tiniba,fasigyn
ornidazole|||tablet|500|dazolic,ornida
secnidazole|||tablet|1000|secnil
nitrofurantoin|||capsule,tablet|50,100|niftran,martifur,macrobid,macrodantin
sulfamethoxazole + trimethoprim||co trimoxazole,cotrimoxazole,trimethoprim sulfamethoxazole|tablet,suspension|480,960|septran,bactrim,ciplin
linezolid|||tablet|600|lizolid,linospan,zyvox
rifaximin|||tablet|200,400,550|rifagut,xifaxan
fosfomycin|||sachet|3000|fosfomycin,monurol
clindamycin|||capsule,gel|150,300|dalacin c,clindac a,cleocin
mupirocin|||ointment|2%|t bact,bactroban,mupinase
fusidic acid|||cream|2%|fucidin,fusiderm
framycetin|||cream|1%|soframycin
neomycin + polymyxin b + bacitracin|||ointment||neosporin
silver sulfadiazine|||cream|1%|silverex,burnol plus,silvadene
fluconazole|||tablet,capsule|50,150,200|forcan,zocon,flucos,diflucan
itraconazole|||capsule|100,200|itaspor,canditral,sporanox
terbinafine|||tablet,cream|250,1%|terbicip,sebifin,lamisil
griseofulvin|||tablet|250,500|grisovin,walavin
clotrimazole|||cream,vaginal pessary,mouth paint,powder|1%,100,200,500|candid,canesten,clocip,lotrimin
clotrimazole + beclomethasone|||cream||candid b,clocip b
luliconazole|||cream|1%|lulifin,luliford,lulibet
ketoconazole|||shampoo,cream|2%|nizral,ketostar,kz
miconazole|||cream,gel|2%|daktarin,zole
sertaconazole|||cream|2%|onabet,sertaderm
eberconazole|||cream|1%|ebernet
amorolfine|||cream,nail lacquer|0.25%,5%|loceryl,amrolfin
nystatin|||suspension,cream|100000|mycostatin,nystat
permethrin|||cream,lotion|5%,1%|permite,scabper,perlice,elimite
ivermectin|||tablet|3,6,12|ivecop,scabo,stromectol
albendazole|||tablet,chewable tablet,suspension|400|zentel,bandy,albenda,noworm,albenza
mebendazole|||tablet|100|mebex,vermox
pyrantel pamoate|||suspension,tablet|250|nemocid,combantrin
acyclovir|acyclovir|aciclovir|tablet,cream|200,400,800|acivir,herpex,ocuvir,zovirax
valacyclovir|valacyclovir|valaciclovir|tablet|500,1000|valcivir,valtrex
famciclovir|||tablet|250,500|famtrex,famvir
oseltamivir|||capsule|30,45,75|fluvir,antiflu,tamiflu
hydroxychloroquine|||tablet|200,300,400|hcqs,hcq,plaquenil
chloroquine|||tablet|250,500|lariago,resochin
artemether + lumefantrine|||tablet|80,480|lumerax,falcigo,coartem
artesunate|||tablet,injection|50,60|falcigo,artesunate
primaquine|||tablet|7.5,15|primaquine,pmq
doxycycline + lactobacillus|||capsule||doxy 1 ldr
omeprazole|||capsule|10,20,40|omez,ocid,omee,prilosec
pantoprazole|||tablet,injection|20,40|pan,pantop,pantocid,pan 40,protonix
rabeprazole|||tablet|10,20|razo,rablet,rabicip,happi,rabeloc,aciphex
esomeprazole|||tablet|20,40|nexpro,esoz,raciper,sompraz,nexium
lansoprazole|||capsule|15,30|lanzol,lan,prevacid
pantoprazole + domperidone|||capsule||pan d,pantocid d,pantop d
rabeprazole + domperidone|||capsule||razo d,rablet d,rabicip d,happi d
esomeprazole + domperidone|||capsule||nexpro rd,esoz d,sompraz d
omeprazole + domperidone|||capsule||omez d,ocid d
famotidine|||tablet|20,40|famocid,topcid,pepcid
ranitidine|||tablet|150,300|rantac,aciloc,zinetac,zantac
sucralfate|||suspension,tablet|1000|sucral,sucrafil,carafate
antacid||antacid gel|suspension,tablet||digene,gelusil,mucaine,maalox,tums,rolaids
domperidone|||tablet,suspension|10|domstal,dompan,motilium
ondansetron|||tablet,injection,syrup|2,4,8|emeset,ondem,vomikind,zofran
metoclopramide|||tablet,injection|10|perinorm,reglan,maxolon
prochlorperazine|||tablet|5|stemetil,compazine
doxylamine + pyridoxine|||tablet|10|doxinate,diclegis
itopride|||tablet|50,150|ganaton,itoprid
levosulpiride|||tablet|25|levopraid,sulpitac
drotaverine|||tablet|40,80|drotin,doverin,spasmonil
dicyclomine|||tablet,injection|10,20|cyclopam,bentyl
hyoscine butylbromide|||tablet,injection|10|buscopan
mebeverine|||tablet|135,200|colospa,mebarid
simethicone|||drops,tablet|40|colicaid,gas x
lactulose|||syrup|10,15|duphalac,looz,livoluk,kristalose
polyethylene glycol||peg,macrogol|powder,sachet|17|peglec,miralax
bisacodyl|||tablet,suppository|5,10|dulcolax,bisalax
sodium picosulfate|||drops,tablet|10|cremalax,laxoberal
senna|||tablet|8.6|senokot,sofsena,pursennid
liquid paraffin + milk of magnesia|||syrup||cremaffin,agarol
ispaghula husk||psyllium,isabgol|powder,sachet||isabgol,naturolax,metamucil,fybogel
docusate|||capsule|100|colace
loperamide|||capsule|2|imodium,eldoper,lopamide
racecadotril|||tablet,sachet,capsule|10,30,100|redotil,racigyl,zedott
oral rehydration salts||ors,oral rehydration solution|sachet,powder||electral,enerzal ors,walyte,pedialyte,ors
zinc sulphate|zinc sulfate|zinc|tablet,syrup|10,20|zinconia,z&d,zinc
saccharomyces boulardii|||capsule,sachet|250|econorm,darolac,sporlac sachet,florastor
lactobacillus||probiotic|capsule,sachet||sporlac,vizylac,lactobacil,culturelle
bacillus clausii|||suspension||enterogermina
ursodeoxycholic acid||ursodiol|tablet|150,300|udiliv,ursocol,actigall
silymarin|||tablet|140|silybon,limarin
rifampicin + isoniazid + pyrazinamide + ethambutol||akt 4,fdc 4|tablet||akt 4,forecox
isoniazid|||tablet|100,300|isokin
amlodipine|||tablet|2.5,5,10|amlong,amlokind,stamlo,amlopres,norvasc
telmisartan|||tablet|20,40,80|telma,telmikind,telsartan,micardis
telmisartan + amlodipine|||tablet||telma am,telmikind am
telmisartan + hydrochlorothiazide|||tablet||telma h,telmikind h
losartan|||tablet|25,50,100|losar,losacar,repace,cozaar
losartan + hydrochlorothiazide|||tablet||losar h,repace h,hyzaar
olmesartan|||tablet|10,20,40|olmezest,olsar,olmy,benicar
valsartan|||tablet|40,80,160|valzaar,valent,diovan
cilnidipine|||tablet|5,10,20|cilacar,cinod,cilnid
nifedipine|||tablet,capsule|10,20,30|depin,nicardia,procardia,adalat
enalapril|||tablet|2.5,5,10|envas,enam,vasotec
ramipril|||tablet|2.5,5,10|cardace,ramace,altace
lisinopril|||tablet|2.5,5,10,20|listril,lipril,zestril,prinivil
atenolol|||tablet|25,50,100|aten,tenormin,betacard
metoprolol|||tablet|25,50,100|met xl,metolar,betaloc,starpress,lopressor,toprol xl
bisoprolol|||tablet|1.25,2.5,5,10|concor,corbis,bisocard,zebeta
nebivolol|||tablet|2.5,5|nebicard,nebilong,bystolic
carvedilol|||tablet|3.125,6.25,12.5,25|cardivas,carloc,coreg
propranolol|||tablet|10,20,40|ciplar,inderal,betaone
labetalol|||tablet|100,200|labebet,lobet
hydrochlorothiazide|||tablet|12.5,25|aquazide,hctz,microzide
chlorthalidone|||tablet|6.25,12.5,25|thalizide,ctd,hygroton
indapamide|||tablet|1.5,2.5|natrilix,lorvas
furosemide||frusemide|tablet,injection|20,40|lasix,frusenex
torsemide|||tablet|5,10,20|dytor,tide,demadex
spironolactone|||tablet|25,50,100|aldactone,spiractin
prazosin|||tablet|2.5,5|minipress,prazopress
clonidine|||tablet|0.1,0.15|arkamin,catapres
hydralazine|||tablet|25,50|hydralazine
methyldopa|||tablet|250,500|aldomet,alphadopa
aspirin||acetylsalicylic acid|tablet|75,150,325|ecosprin,disprin,loprin,bayer aspirin
clopidogrel|||tablet|75|clopilet,deplatt,clopitab,plavix
aspirin + clopidogrel|||capsule||ecosprin av,clopitab a,deplatt a
ticagrelor|||tablet|60,90|brilinta,axcer,ticaloz
prasugrel|||tablet|5,10|prasita,effient
rivaroxaban|||tablet|10,15,20|xarelto,rivaflo
apixaban|||tablet|2.5,5|eliquis,apigat
dabigatran|||capsule|110,150|pradaxa
warfarin|||tablet|1,2,5|warf,uniwarfin,coumadin
acenocoumarol|||tablet|1,2,4|acitrom,sintrom
atorvastatin|||tablet|10,20,40,80|atorva,storvas,lipicure,tonact,lipitor
rosuvastatin|||tablet|5,10,20,40|rosuvas,rozavel,rozat,crestor
simvastatin|||tablet|10,20,40|simvas,zocor
pravastatin|||tablet|10,20,40|pravachol
fenofibrate|||tablet|145,160|fenolip,lipicard,tricor
ezetimibe|||tablet|10|ezedoc,zetia
atorvastatin + aspirin|||capsule||ecosprin gold,atorva asp
isosorbide dinitrate|||tablet,sublingual tablet|5,10|sorbitrate,isordil
isosorbide mononitrate|||tablet|10,20,30|monotrate,imdur
nitroglycerin||glyceryl trinitrate|tablet,spray|0.4,2.6|nitrocontin,angispan,nitrostat
ranolazine|||tablet|500,1000|ranolaz,ranexa
trimetazidine|||tablet|35|flavedon,trivedon
ivabradine|||tablet|5,7.5|ivabrad,coralan
digoxin|||tablet|0.25|lanoxin,digox
amiodarone|||tablet|100,200|cordarone,tachyra
sacubitril + valsartan|||tablet|50,100,200|vymada,arnipin,entresto
metformin|||tablet|250,500,850,1000|glycomet,gluconorm,obimet,glyciphage,glucophage
glimepiride|||tablet|0.5,1,2,3,4|amaryl,glimy,glimestar,zoryl
glimepiride + metformin|||tablet||glycomet gp,amaryl m,glimy m,gemer
gliclazide|||tablet|40,60,80|diamicron,glizid,reclide
glipizide|||tablet|2.5,5,10|glynase,glucotrol
sitagliptin|||tablet|25,50,100|januvia,istavel,zita
sitagliptin + metformin|||tablet||janumet,istamet,zita met
vildagliptin|||tablet|50|galvus,jalra,zomelis
vildagliptin + metformin|||tablet||galvus met,jalra m
linagliptin|||tablet|5|trajenta,ondero
teneligliptin|||tablet|20|tenepride,teneza,dynaglipt
empagliflozin|||tablet|10,25|jardiance,gibtulio
dapagliflozin|||tablet|5,10|forxiga,farxiga,oxra,dapanorm
pioglitazone|||tablet|7.5,15,30|pioz,pioglit,actos
voglibose|||tablet|0.2,0.3|voglib,volibo,vocarb
acarbose|||tablet|25,50|glucobay,rebose,precose
semaglutide|||tablet,injection|3,7,14|rybelsus,ozempic,wegovy
liraglutide|||injection||victoza,saxenda
insulin glargine|||injection||lantus,basalog,glaritus,basaglar,toujeo
human regular insulin||regular insulin,soluble insulin,insulin regular|injection||actrapid,huminsulin r,humulin r,insugen r,novolin r
isophane insulin||nph insulin|injection||insulatard,huminsulin n,humulin n
premixed insulin 30/70||biphasic insulin,mixed insulin|injection||mixtard,huminsulin 30/70,humulin 70/30,insugen 30/70
insulin aspart|||injection||novorapid,novolog
insulin lispro|||injection||humalog
insulin degludec|||injection||tresiba
levothyroxine||thyroxine|tablet|12.5,25,50,75,88,100,125|thyronorm,eltroxin,thyrox,synthroid,levoxyl
carbimazole|||tablet|5,10,20|neomercazole,antithyrox
methimazole|||tablet|5,10|thyrocab,tapazole
propylthiouracil|||tablet|50|ptu
prednisolone|||tablet,syrup|5,10,20,40|wysolone,omnacortil,predone
prednisone|||tablet|5,10,20|deltasone
methylprednisolone|||tablet,injection|4,8,16|medrol,depo medrol
deflazacort|||tablet|6,12,30|defcort,dezacor
dexamethasone|||tablet,injection|0.5,4,8|dexona,decadron,dexasone
betamethasone|||tablet,cream|0.5|betnesol,betnovate,celestone
hydrocortisone|||cream,tablet,injection|1%,10|hisone,cortef,locoid
clobetasol propionate||clobetasol|cream,ointment,lotion|0.05%|tenovate,lobate,dermovate,clop,temovate
mometasone|||cream,nasal spray,ointment|0.1%,50|elocon,momate,nasonex,metaspray
fluticasone|||nasal spray,cream,inhaler|50,0.05%|flonase,flomist,flutivate,flovent
budesonide|||inhaler,respules,nasal spray|100,200,400|budecort,pulmicort,rhinocort
beclomethasone|||inhaler,cream|100,200|beclate,qvar
triamcinolone|||injection,cream|10,40|kenacort,kenalog
halobetasol|||cream|0.05%|halox,ultravate
desonide|||cream|0.05%|desowen,desonide
tacrolimus|||ointment|0.03%,0.1%|tacroz,protopic
calamine|||lotion||calamine,lacto calamine,caladryl
liquid paraffin|||lotion,emulsion||liquid paraffin
white soft paraffin||petroleum jelly,vaseline|ointment||vaseline
coal tar|||shampoo,ointment,solution||tarsyn,coal tar
salicylic acid|||ointment,gel|3%,6%|salicylix,saliac
urea|||cream|10%,20%|uremol,eucerin urea
emollient||moisturiser,moisturizer|cream,lotion||cetaphil,venusia,cetaphil moisturising lotion,physiogel
benzoyl peroxide|||gel|2.5%,5%|persol,benzac,pernex ac
adapalene|||gel|0.1%|adaferin,deriva,differin
adapalene + clindamycin|||gel||deriva cms,adaferin c
clindamycin topical||clindamycin gel|gel|1%|clindac a,clingen
tretinoin|||cream|0.025%,0.05%|retino a,retin a
isotretinoin|||capsule|10,20|isotroin,sotret,accutane
azelaic acid|||cream|10%,20%|aziderm,finacea
hydroquinone|||cream|2%,4%|melalite,eukroma
minoxidil|||solution|2%,5%|mintop,tugain,rogaine
finasteride|||tablet|1,5|finpecia,finast,proscar,propecia
tamsulosin|||capsule|0.2,0.4|urimax,veltam,contiflo,flomax
silodosin|||capsule|4,8|silodal,rapilif,rapaflo
alfuzosin|||tablet|10|alfusin,uroxatral
dutasteride|||capsule|0.5|dutas,avodart
tamsulosin + dutasteride|||capsule||urimax d,veltam plus,dutas t
flavoxate|||tablet|200|urispas
tolterodine|||tablet|1,2,4|roliten,detrusitol
solifenacin|||tablet|5,10|soliten,vesicare
mirabegron|||tablet|25,50|mirago,myrbetriq
potassium citrate|||solution,syrup|1100|alkasol,urikind k,cital
sildenafil|||tablet|25,50,100|penegra,manforce,viagra
tadalafil|||tablet|5,10,20|megalis,tadacip,cialis
cetirizine|||tablet,syrup|5,10|cetzine,okacet,alerid,zyrtec
levocetirizine|||tablet,syrup|5|levocet,teczine,xyzal
fexofenadine|||tablet|120,180|allegra,fexova,telfast
loratadine|||tablet|10|lorfast,alaspan,claritin
desloratadine|||tablet|5|deslor,clarinex,aerius
bilastine|||tablet|20|bilaxten,bilastine
chlorpheniramine|||tablet,syrup|2,4|piriton,cadistin,chlor trimeton
pheniramine|||tablet,injection|25|avil
hydroxyzine|||tablet,syrup|10,25|atarax,hizine,vistaril
diphenhydramine|||syrup,capsule|25,50|benadryl
cyproheptadine|||tablet,syrup|4|practin,periactin
promethazine|||tablet,syrup|10,25|phenergan,avomine
montelukast|||tablet|4,5,10|montair,romilast,montek,singulair
montelukast + levocetirizine|||tablet,syrup||montair lc,montek lc,levomont,romilast l
montelukast + fexofenadine|||tablet||montair fx,allegra m
salbutamol|albuterol||inhaler,respules,syrup,tablet|100,2,4|asthalin,ventorlin,proair,ventolin
levosalbutamol|levalbuterol||inhaler,respules|50|levolin,xopenex
ipratropium|||inhaler,respules|20|ipravent,atrovent
ipratropium + levosalbutamol|||respules,inhaler||duolin,combivent
tiotropium|||inhaler,rotacap|9,18|tiova,spiriva
formoterol + budesonide||budesonide formoterol|inhaler,rotacap||foracort,budamate,symbicort
salmeterol + fluticasone||fluticasone salmeterol|inhaler,rotacap||seroflo,esiflo,advair
doxofylline|||tablet|400|doxovent,doxolin
theophylline + etofylline|||tablet,injection||deriphyllin
acebrophylline|||capsule|100|ab phylline,acebrophylline
guaifenesin|||syrup,tablet||mucinex,robitussin
ambroxol|||syrup,tablet|30,75|mucolite,ambrodil,mucosolvan
ambroxol + levocetirizine + guaifenesin|||syrup||ascoril ls,ambrodil lx
terbutaline + bromhexine + guaifenesin|||syrup||ascoril,ascoril plus,bro zedex
dextromethorphan|||syrup||delsym,tusq dx,benadryl dr
dextromethorphan + chlorpheniramine + phenylephrine|||syrup||alex,grilinctus,chericof
codeine + chlorpheniramine|||syrup||corex,phensedyl,tossex
benzonatate|||capsule|100,200|tessalon
amylmetacresol + dichlorobenzyl alcohol|||lozenge||strepsils
chlorhexidine|||mouthwash|0.2%|hexidine,clohex,peridex
povidone iodine|||solution,gargle,ointment|5%,10%|betadine,wokadine
xylometazoline|||nasal drops,nasal spray|0.05%,0.1%|otrivin,nasivion,sinarest nasal,otrivine
oxymetazoline|||nasal drops,nasal spray|0.025%,0.05%|nasivion s,afrin,oxymet
sodium chloride nasal||saline nasal drops,saline nasal spray|nasal drops,nasal spray|0.65%|nasoclear,ocean
paracetamol + phenylephrine + chlorpheniramine|acetaminophen + phenylephrine + chlorpheniramine||tablet,syrup||sinarest,coldact,d cold total,cheston cold,coldarin,vicks action 500
pseudoephedrine|||tablet|30,60|sudafed
ciprofloxacin eye drops||ciprofloxacin drops|eye drops|0.3%|ciplox eye drops,ciplox d
moxifloxacin eye drops|||eye drops|0.5%|moxicip,vigamox,milflox
tobramycin + dexamethasone|||eye drops||tobradex,tobastar d
carboxymethylcellulose||artificial tears,lubricating eye drops|eye drops|0.5%,1%|refresh tears,lubrex,refresh
olopatadine|||eye drops|0.1%,0.2%|olopat,pataday,patanol
timolol|||eye drops|0.5%|glucomol,timolet,timoptic
latanoprost|||eye drops|0.005%|latoprost,xalatan
ofloxacin ear drops|||ear drops|0.3%|otek ac,ofloxacin ear
clotrimazole + lignocaine ear drops|||ear drops||candid ear drops,surfaz sn
paradichlorobenzene + benzocaine||wax drops|ear drops||waxolve,cerumol,soliwax
lignocaine|lidocaine|lidocaine|gel,jelly,injection|2%|xylocaine,lox
sertraline|||tablet|25,50,100|serta,daxid,zosert,zoloft
escitalopram|||tablet|5,10,20|nexito,stalopam,cilentra,lexapro
fluoxetine|||capsule|10,20|fludac,flunil,prozac
paroxetine|||tablet|10,12.5,25|pari cr,paxil
citalopram|||tablet|10,20|celepram,celexa
venlafaxine|||tablet,capsule|37.5,75|venlor,veniz,effexor
desvenlafaxine|||tablet|50,100|desvenlor,pristiq
bupropion|||tablet|150,300|bupron,wellbutrin
mirtazapine|||tablet|7.5,15,30|mirtaz,remeron
trazodone|||tablet|25,50,100|trazonil,trazalon,desyrel
buspirone|||tablet|5,10|buspin,buspar
alprazolam|||tablet|0.25,0.5,1|alprax,restyl,trika,xanax
clonazepam|||tablet|0.25,0.5,1,2|clonotril,rivotril,lonazep,klonopin
lorazepam|||tablet,injection|1,2|ativan,larpose
diazepam|||tablet,injection|2,5,10|valium,calmpose
etizolam|||tablet|0.25,0.5|etilaam,etizola
chlordiazepoxide|||tablet,capsule|10,25|librium,libotryp
zolpidem|||tablet|5,10|zolfresh,nitrest,ambien
melatonin|||tablet|3,5|meloset,melatonin
olanzapine|||tablet|2.5,5,10|oleanz,olimelt,zyprexa
quetiapine|||tablet|25,50,100|qutipin,seroquel
risperidone|||tablet|1,2,3|sizodon,risdone,risperdal
aripiprazole|||tablet|5,10,15|arip mt,aripra,abilify
haloperidol|||tablet,injection|1.5,5|serenace,haldol
lithium carbonate|||tablet|300,400|licab,lithosun
sodium valproate||valproic acid,divalproex|tablet,syrup|200,300,500|encorate,valparin,depakote
levetiracetam|||tablet|250,500,750|levipil,levera,keppra
phenytoin|||tablet,injection|100|eptoin,dilantin
carbamazepine|||tablet|100,200,400|tegretol,zen retard
oxcarbazepine|||tablet|150,300,600|oxetol,trileptal
lamotrigine|||tablet|25,50,100|lametec,lamictal
topiramate|||tablet|25,50,100|topaz,topamax
clobazam|||tablet|5,10|frisium,cloba
midazolam|||nasal spray,injection|0.5,1,2,5|midacip,insed,nasoz
methylphenidate|||tablet|5,10,18|addwize,inspiral,ritalin,concerta
donepezil|||tablet|5,10|donep,aricept
levodopa + carbidopa|||tablet||syndopa,tidomet,sinemet
pramipexole|||tablet|0.25,0.5|pramipex,mirapex
ropinirole|||tablet|0.25,0.5,1|ropark,requip
betahistine|||tablet|8,16,24|vertin,betavert,serc
cinnarizine|||tablet|25,75|stugeron,vertigon
prochlorperazine + cinnarizine|||tablet||vertigo stop
dimenhydrinate|||tablet|50|dramamine,gravol
meclizine|||tablet|12.5,25|antivert,bonine
sumatriptan|||tablet|25,50,100|suminat,imitrex
rizatriptan|||tablet|5,10|rizact,maxalt
flunarizine|||tablet|5,10|sibelium,flunarin
naltrexone|||tablet|50|naltima,revia
baclofen|||tablet|10,20|liofen,lioresal
disulfiram|||tablet|250|esperal,antabuse
acamprosate|||tablet|333|acamprol,campral
nicotine replacement||nicotine gum,nicotine patch|gum,patch|2,4|nicotex,nicorette,nicoderm
varenicline|||tablet|0.5,1|chantix,champix
thiamine||vitamin b1|tablet,injection|75,100|benfomet,thiamine
vitamin b complex||b complex|capsule,tablet,syrup||becosules,becozinc,neurobion,polybion,b complex
multivitamin||multivitamins,multivitamin and minerals|capsule,tablet,syrup||zincovit,supradyn,revital,a to z,centrum,one a day
cholecalciferol||vitamin d3,vitamin d|sachet,capsule,tablet|1000,60000|calcirol,uprise d3,d rise,tayo,arachitol,d3 must
calcium carbonate||calcium|tablet|500,1250|shelcal,calcimax,cipcal,gemcal,tums calcium
calcium carbonate + vitamin d3||calcium and vitamin d3,calcium with vitamin d|tablet||shelcal 500,calcimax p,caldikind
calcitriol|||capsule|0.25|rocaltrol,calcitriol
alendronate|||tablet|35,70|osteofos,fosamax
ferrous sulphate|ferrous sulfate|iron tablet|tablet|200,325|fersolate,feosol,slow fe
ferrous ascorbate|||tablet,syrup|100|orofer xt,feronia xt,ferose
ferrous fumarate + folic acid|||tablet,capsule||livogen,autrin,dexorange
ferric carboxymaltose|||injection|500,1000|ferinject,encicarb
iron sucrose|||injection|100|orofer s,venofer
folic acid|||tablet|1,5|folvite,folitab
cyanocobalamin||vitamin b12|injection,tablet|1000|macrabin,cyanocobalamin
ascorbic acid||vitamin c|tablet|500|limcee,celin
vitamin e||tocopherol|capsule|400|evion
omega 3 fatty acids||fish oil|capsule|1000|maxepa,omacor
potassium chloride|||syrup,tablet|8,10|kesol,klor con
sodium bicarbonate|||tablet|500,1000|sodamint
allopurinol|||tablet|100,300|zyloric,zyloprim
febuxostat|||tablet|40,80|febuget,zurig,uloric
colchicine|||tablet|0.5,0.6|zycolchin,colchicine,colcrys
methotrexate|||tablet,injection|2.5,7.5,10,15|folitrax,imutrex,trexall
sulfasalazine|||tablet|500,1000|saaz,azulfidine
leflunomide|||tablet|10,20|lefno,arava
glucosamine|||tablet|500,750|jointace,cartigen
diacerein|||capsule|50|dicerin,artrodar
medroxyprogesterone|||tablet,injection|10,150|meprate,provera,depo provera
norethisterone|||tablet|5|primolut n,regestrone,noristerat
dydrogesterone|||tablet|10|duphaston,dydroboon
progesterone|||capsule,injection,gel|100,200,400|susten,naturogest,prometrium
levonorgestrel + ethinylestradiol||oral contraceptive pill,oral contraceptive,ocp,combined pill,birth control pill|tablet||ovral l,mala d,loette,microgynon
levonorgestrel|||tablet|1.5|unwanted 72,i pill,plan b
clomiphene|||tablet|25,50,100|siphene,fertyl,clomid
letrozole|||tablet|2.5|letroz,femara
cabergoline|||tablet|0.25,0.5|cabgolin,dostinex
tranexamic acid|||tablet,injection|500|pause,trapic,lysteda
tranexamic acid + mefenamic acid|||tablet||pause mf,trapic mf
drospirenone + ethinylestradiol|||tablet||yasmin,crisanta
cyproterone + ethinylestradiol|||tablet||krimson 35,diane 35,ginette
estradiol|||tablet,gel|1,2|progynova,estrace
misoprostol|||tablet|200|cytolog,misoprost
tetanus toxoid|||injection|0.5|tt,tetvac,tetanus vaccine
rabies vaccine|||injection||rabipur,verorab,abhayrab
influenza vaccine||flu vaccine,flu shot|injection||vaxigrip,influvac,fluarix
epinephrine||adrenaline|injection,auto injector|0.3,0.5|epipen,adrenaline
hepatitis b vaccine|||injection||engerix b,genevac b
`;

export interface Drug {
  name: string;
  us?: string;
  aliases: string[];
  forms: string[];
  strengths: string[];
  brands: string[];
}

const list = (field: string | undefined): string[] =>
  (field ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export const FORMULARY: readonly Drug[] = TABLE.trim().split('\n').map((line) => {
  const [name = '', us, aliases, forms, strengths, brands] = line.split('|');
  return { name, us: us || undefined, aliases: list(aliases), forms: list(forms), strengths: list(strengths), brands: list(brands) };
});
