/** Analgesics, NSAIDs, opioids, muscle relaxants, neuropathic pain, gout, rheumatology and bone. Row format: ../formulary.ts. */
export const PAIN = `
paracetamol|acetaminophen|pcm,apap|tablet,syrup,suspension,drops,injection,suppository|125,250,325,500,650,1000,120mg/5ml,125mg/5ml,250mg/5ml,100mg/ml,1000mg/100ml|crocin,crocin advance,crocin ds,dolo,calpol,pacimol,metacin,febrinil,tylenol,tylenol extra strength,tylenol arthritis,panadol
ibuprofen|||tablet,suspension,gel|200,400,600,800,100mg/5ml,5%|brufen,ibugesic,advil,motrin,motrin ib,nurofen
ibuprofen + paracetamol|||tablet,suspension|400|combiflam,ibugesic plus,advil dual action
ibuprofen + famotidine|||tablet||duexis
aceclofenac|||tablet|100,200|hifenac,zerodol,aceclo,dolokind
aceclofenac + paracetamol|||tablet||zerodol p,hifenac p,aceclo plus,dolokind plus
aceclofenac + paracetamol + serratiopeptidase|||tablet||zerodol sp,hifenac sp
aceclofenac + paracetamol + chlorzoxazone|||tablet||zerodol mr,hifenac mr
aceclofenac + thiocolchicoside|||tablet||zerodol th
diclofenac|||tablet,gel,injection,patch|25,50,75,100,1%,1.16%,75mg/3ml|voveran,voveran sr,voveran emulgel,voltaren,voltaren emulgel,volini,dynapar,reactin,cambia,flector
diclofenac + paracetamol|||tablet||diclomol
diclofenac + paracetamol + serratiopeptidase|||tablet||
diclofenac + misoprostol|||tablet||arthrotec
etodolac|||tablet|200,300,400,600|etova,lodine
naproxen||naproxen sodium|tablet,suspension|220,250,375,500|naprosyn,aleve,anaprox
naproxen + domperidone|||tablet||naxdom
mefenamic acid|||tablet,suspension|250,500,100mg/5ml|meftal,meftal p,ponstan
mefenamic acid + paracetamol|||tablet,suspension||meftal forte
mefenamic acid + dicyclomine|||tablet||meftal spas
nimesulide|||tablet|100|nise,nimulid
nimesulide + paracetamol|||tablet||~sumo
ketorolac|||tablet,injection,eye drops|10,30mg/ml,0.4%,0.5%|ketorol,toradol,ketanov,acular
etoricoxib|||tablet|60,90,120|etoshine,nucoxia,arcoxia
celecoxib|||capsule|100,200|celebrex
meloxicam|||tablet|7.5,15|mobic,muvera
piroxicam|||capsule,gel|10,20,0.5%|dolonex,feldene
indomethacin|indomethacin|indometacin|capsule,suppository|25,50,75|indocap,indocin
lornoxicam|||tablet|4,8|
ketoprofen|||gel,tablet|2.5%,50,100|
tramadol|||capsule,tablet,injection|50,100|tramazac,contramal,ultram
tramadol + paracetamol|||tablet||ultracet
tapentadol|||tablet|50,75,100|tapal,tydol,nucynta
morphine|||tablet,injection|10,15,30,60|ms contin
oxycodone|||tablet|5,10,15,20,30|oxycontin,roxicodone
oxycodone + paracetamol|||tablet||percocet
hydrocodone|||tablet||
hydrocodone + paracetamol|||tablet||norco,vicodin
codeine|||tablet,syrup|15,30,60|
fentanyl|||patch,injection|12mcg,25mcg,50mcg|duragesic
buprenorphine|||patch,sublingual tablet,injection|5mcg,10mcg,20mcg,0.4,2,8|norspan,butrans
naloxone|||injection,nasal spray|0.4,4|narcan
buprenorphine + naloxone|||sublingual tablet,film||suboxone
thiocolchicoside|||tablet,capsule,injection|4,8|myoril,muscoril
chlorzoxazone|||tablet|250,500|parafon forte
chlorzoxazone + paracetamol|||tablet||myospaz
cyclobenzaprine|||tablet|5,7.5,10|flexeril,amrix
methocarbamol|||tablet|500,750|robaxin
tizanidine|||tablet|2,4|tizan,sirdalud,zanaflex
baclofen|||tablet|5,10,20|liofen,lioresal,gablofen
carisoprodol|||tablet|250,350|
metaxalone|||tablet|400,800|skelaxin
orphenadrine|||tablet|100|norflex
serratiopeptidase||serrapeptase|tablet|5,10|
trypsin + chymotrypsin||trypsin chymotrypsin|tablet||chymoral,chymoral forte
pregabalin|||capsule|25,50,75,150,300|pregaba,lyrica,pregalin
pregabalin + methylcobalamin|||capsule||pregaba m
pregabalin + nortriptyline|||tablet||pregaba nt
gabapentin|||tablet,capsule|100,300,400,600,800|gabapin,gabantin,neurontin,gralise
gabapentin + nortriptyline|||tablet||gabapin nt
capsaicin|||cream,patch|0.025%,0.075%,8%|qutenza
prilocaine|||injection,cream|2.5%|
lignocaine + prilocaine|||cream|2.5%|emla
allopurinol|||tablet|100,300|zyloric,zyloprim
febuxostat|||tablet|40,80|febuget,zurig,uloric
colchicine|||tablet|0.5,0.6|zycolchin,colcrys,mitigare
probenecid|||tablet|500|
methotrexate|||tablet,injection|2.5,7.5,10,15,25mg/ml|folitrax,imutrex,trexall,otrexup
hydroxychloroquine|||tablet|200,300,400|hcqs,hcq,plaquenil
sulfasalazine|||tablet|500,1000|saaz,azulfidine
leflunomide|||tablet|10,20|lefno,arava
azathioprine|||tablet|25,50|azoran,imuran
tofacitinib|||tablet|5,10|xeljanz
apremilast|||tablet|10,20,30|otezla
adalimumab|||injection|40|humira,exemptia
etanercept|||injection|25,50|enbrel
glucosamine|||tablet,sachet|500,750,1500|
glucosamine + chondroitin|||tablet||
diacerein|||capsule|50|dicerin
alendronate||alendronic acid|tablet|35,70|osteofos,fosamax
risedronate|||tablet|35,150|actonel
ibandronate||ibandronic acid|tablet,injection|150|boniva
zoledronic acid|||injection|4,5|zometa,reclast,aclasta
denosumab|||injection|60,120|prolia,xgeva
teriparatide|||injection|20mcg|forteo
raloxifene|||tablet|60|evista
trypsin|||tablet||
chymotrypsin|||tablet||
chondroitin||chondroitin sulphate,chondroitin sulfate|tablet|400|
`;
